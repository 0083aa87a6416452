-- pgvector, when this server has it. PGlite loads it as an extension; Debian's PostgreSQL 15 has no
-- pgvector package, and a managed server may refuse CREATE EXTENSION to a non-superuser. Either way
-- the task tables do not need it, so its absence is a notice, not a failure. The knowledge store
-- (retriever) checks pg_extension before it creates vector columns.
do $$
begin
  if exists (select 1 from pg_available_extensions where name = 'vector') then
    begin
      create extension if not exists vector;
    exception when insufficient_privilege then
      raise notice 'pgvector is available but this role may not create it; vector search is off';
    end;
  else
    raise notice 'pgvector is not installed on this server; vector search is off';
  end if;
end
$$;
