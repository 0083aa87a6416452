-- API keys (docs/security.md): long-lived bearer credentials `gk_<id>_<secret>`, each standing for
-- one role in one tenant. Runs inside the migration transaction (see src/stores/migrate.ts); the
-- same text on PGlite and PostgreSQL.
--
-- The key itself is never stored, only SHA-256 of its secret. A plain, fast hash is enough here:
-- the secret is 256 random bits, so there is no dictionary to try and no preimage search that
-- could finish; slow password hashes (bcrypt, argon2) exist for secrets people choose, and would
-- cost every verification milliseconds of CPU for nothing. A leaked table lets nobody call the API.
create table api_keys (
  -- The public part of the key: 16 hex characters (64 random bits), looked up on every verification.
  id           text primary key,
  tenant       text not null,
  role         text not null check (role in ('admin', 'member', 'viewer', 'service')),
  name         text not null,
  -- SHA-256 of the secret, 32 bytes.
  secret_hash  bytea not null check (length(secret_hash) = 32),
  created_at   timestamptz not null default now(),
  -- Set once by a revocation, never cleared: a revoked key stays listed, and refused.
  revoked_at   timestamptz,
  -- Refreshed at most about once a minute per key, not on every request.
  last_used_at timestamptz
);
-- The list, per tenant or whole, newest first; ties by id.
create index api_keys_tenant_created_at on api_keys (tenant, created_at, id);
create index api_keys_created_at on api_keys (created_at, id);
