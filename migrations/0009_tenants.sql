-- Every resource belongs to a tenant (docs/security.md, "Tenants"): tasks, idempotency keys,
-- knowledge documents and their chunks, episodic-memory entries. Steps and events belong to their
-- task and are reached through it. Rows from before tenants move into the default tenant: a
-- constant default fills the column without rewriting the table (PostgreSQL 11 and later).
-- Runs inside the migration transaction (see src/stores/migrate.ts); the same text on PGlite and PostgreSQL.

alter table tasks add column tenant text not null default 'default';
alter table idempotency_keys add column tenant text not null default 'default';
alter table knowledge_documents add column tenant text not null default 'default';
alter table knowledge_chunks add column tenant text not null default 'default';
alter table episodes add column tenant text not null default 'default';

-- Task lists filter by tenant first: each sort key's index now leads with it. The old indexes
-- would serve only an admin's list across every tenant, which is rare and may sort. `if not
-- exists`: on a large table an operator may build these beforehand with `create index
-- concurrently`, so the migration does not hold the table while they build (docs/storage.md).
drop index tasks_created_at_idx;
drop index tasks_updated_at_idx;
drop index tasks_status_created_idx;
drop index tasks_priority_idx;
drop index tasks_user_created_idx;
create index if not exists tasks_tenant_created_idx on tasks (tenant, created_at, task_id);
create index if not exists tasks_tenant_updated_idx on tasks (tenant, updated_at, task_id);
create index if not exists tasks_tenant_status_created_idx on tasks (tenant, status, created_at, task_id);
create index if not exists tasks_tenant_priority_idx on tasks (tenant, priority_rank, created_at, task_id);
create index if not exists tasks_tenant_user_created_idx on tasks (tenant, user_id, created_at) where user_id is not null;

-- A key is unique per tenant (and, inside the key text, per acting user: `<user>:<key>`).
alter table idempotency_keys drop constraint idempotency_keys_pkey;
alter table idempotency_keys add primary key (tenant, key);

drop index knowledge_documents_created_at_idx;
create index if not exists knowledge_documents_tenant_created_idx on knowledge_documents (tenant, created_at, document_id);
-- Search filters chunks by tenant (beside the full-text GIN index, and for the vector scans in SQL).
create index if not exists knowledge_chunks_tenant_embedder_idx on knowledge_chunks (tenant, embedder);
create index if not exists episodes_tenant_embedder_idx on episodes (tenant, embedder);
