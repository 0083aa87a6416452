-- A version per vector table, bumped by every statement that changes it, in that statement's
-- transaction. The knowledge store's in-memory scan (src/stores/vector-scan.ts) reads it before each
-- search and reloads its copy of the vectors only when it moved: any process's ingest or delete
-- is seen by every process's next search.
create table vector_versions (
  table_name text primary key,
  version    bigint not null default 0
);
insert into vector_versions (table_name) values ('knowledge_chunks'), ('episodes');

create function bump_vector_version() returns trigger language plpgsql as $$
begin
  -- qualified by the changed table's own schema: right whatever the session's search_path
  execute format('update %I.vector_versions set version = version + 1 where table_name = %L', tg_table_schema, tg_table_name);
  return null;
end
$$;

create trigger knowledge_chunks_version after insert or update or delete or truncate on knowledge_chunks
  for each statement execute function bump_vector_version();
create trigger episodes_version after insert or update or delete or truncate on episodes
  for each statement execute function bump_vector_version();
