-- Capability tokens and arm registration (docs/arms-and-tokens.md), shared by every orchestrator on one database.
-- Runs inside the migration transaction (see src/stores/migrate.ts); the same text on PGlite and PostgreSQL.

-- Public halves of the orchestrators' signing keys, served as the JWKS arms verify against. Private
-- keys never come here: each process holds its own (or CAPABILITY_PRIVATE_KEY). A process refreshes
-- last_seen_at while it runs; keys unseen for a day are deleted by the others.
create table capability_keys (
  kid          text primary key,
  public_jwk   jsonb not null,
  created_at   timestamptz not null default now(),
  last_seen_at timestamptz not null default now()
);
create index capability_keys_last_seen_at on capability_keys (last_seen_at);

-- External arms registered at run time (POST /api/v1/arms/register), so every orchestrator sees them.
-- Built-in arms are never stored here: they come from configuration.
create table arms (
  name          text primary key,
  url           text not null,
  capability    jsonb not null,
  registered_at timestamptz not null default now(),
  updated_at    timestamptz not null default now()
);
