-- A NOTIFY for every statement that appends events, sent at its transaction's commit, so event
-- streams wake the moment events exist instead of polling (src/orchestrator/event-feed.ts). One
-- channel for the database; the payload is '<schema> <task_id> <seq>', one per task the statement
-- touched with the last event id it appended, so a listener ignores other schemas' tasks and wakes
-- only the streams that have not read that far. Schema names have no spaces (sql.ts).
create function notify_task_events() returns trigger language plpgsql as $$
begin
  perform pg_notify('ganglion_task_events', tg_table_schema || ' ' || added.task_id || ' ' || added.seq)
     from (select task_id, max(seq) as seq from added_events group by task_id) as added;
  return null;
end
$$;

create trigger task_events_notify
  after insert on task_events
  referencing new table as added_events
  for each statement execute function notify_task_events();
