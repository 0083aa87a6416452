-- The request that submitted a task: its X-Request-ID and, with tracing on, the W3C trace context
-- the task's spans join (docs/observability.md). The runner reads it with the task, so every job
-- of the task, on whichever worker, forwards the id to arms and models and continues the trace.
-- Nullable, no default: tasks created before it simply have none.
alter table tasks add column origin jsonb;
