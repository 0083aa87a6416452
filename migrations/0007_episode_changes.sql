-- Episodes change with every completed task, so the in-memory copy of their vectors
-- (src/stores/episode-scan.ts) is kept current by reading only the rows changed since it last
-- read, not reloaded whole. Each row carries the id of the transaction that last wrote it; a
-- reader asks for rows written by transactions at or after the oldest one its previous read could
-- not see (that snapshot's xmin), so a write committed late is still found.
--
-- The statement trigger of 0006 bumped one version row on every insert: every completed task's
-- episode took the same row lock. Now only a removal (delete, truncate), which a copy cannot read
-- row by row, moves the version, and a copy reloads whole then.
drop trigger episodes_version on episodes;
create trigger episodes_removed after delete or truncate on episodes
  for each statement execute function bump_vector_version();

alter table episodes add column changed_xid xid8 not null default pg_current_xact_id();
create index episodes_changed_xid_idx on episodes (changed_xid);

-- Whoever updates a row (the memory's upsert, an operator's statement), it is read again.
create function stamp_episode_change() returns trigger language plpgsql as $$
begin
  new.changed_xid := pg_current_xact_id();
  return new;
end
$$;
create trigger episodes_changed before update on episodes
  for each row execute function stamp_episode_change();
