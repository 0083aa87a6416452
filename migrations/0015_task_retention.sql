-- Retention (docs/storage.md, "Retention and deletion"): finished tasks older than
-- TASK_RETENTION_DAYS are deleted in small batches, oldest first. This index finds them without
-- reading the tasks still active; it holds finished tasks only, by the time they finished (a task
-- created final, such as a rejected one, has no completed_at and counts from its last update).
-- Runs inside the migration transaction (see src/stores/migrate.ts); the same text on PGlite and PostgreSQL.
create index if not exists tasks_finished_at_idx on tasks ((coalesce(completed_at, updated_at)))
  where status in ('completed','failed','cancelled','timed_out','rejected');
