-- The retriever's knowledge store (documents split into chunks) and episodic memory (completed
-- tasks), each vector tagged with the embedder that made it. See docs/arms/retriever.md.
-- Runs inside the migration transaction (see src/stores/migrate.ts); the same text on PGlite and PostgreSQL.

create table knowledge_documents (
  document_id  text primary key,
  title        text,
  source       text,
  metadata     jsonb not null default '{}'::jsonb,
  text         text not null,
  chunk_count  integer not null,
  created_at   timestamptz not null default now()
);
create index knowledge_documents_created_at_idx on knowledge_documents (created_at, document_id);

create table knowledge_chunks (
  chunk_id     text primary key,
  document_id  text not null references knowledge_documents (document_id) on delete cascade,
  position     integer not null,
  start_offset integer not null,
  text         text not null,
  -- Full-text search. The regconfig is spelt out: a generated column needs an immutable expression.
  tsv          tsvector generated always as (to_tsvector('english'::regconfig, text)) stored,
  embedder     text not null,
  -- Unit length, so cosine similarity is a dot product. Always written; it is the vector path
  -- when the server has no pgvector, and the source for a backfill if pgvector arrives later.
  embedding    real[] not null,
  unique (document_id, position)
);
create index knowledge_chunks_tsv_idx on knowledge_chunks using gin (tsv);
create index knowledge_chunks_embedder_idx on knowledge_chunks (embedder);

create table episodes (
  task_id      text primary key,
  goal         text not null,
  steps        jsonb not null default '[]'::jsonb,
  outcome      text not null,
  completed_at timestamptz not null,
  embedder     text not null,
  embedding    real[] not null
);
create index episodes_embedder_idx on episodes (embedder);

-- With pgvector visible from this schema, a `vector` column beside each array for `<=>`. No fixed
-- dimension, so any embedder fits; the price is no ANN index (those need one), i.e. an exact scan.
-- The store looks for this column when it opens and picks its query from what it finds.
do $$
begin
  if exists (select 1 from pg_type where typname = 'vector' and pg_type_is_visible(oid)) then
    alter table knowledge_chunks add column embedding_vec vector;
    alter table episodes add column embedding_vec vector;
  else
    raise notice 'no pgvector type visible: knowledge and episode vectors are compared as real[]';
  end if;
end
$$;
