-- Webhooks (docs/webhooks.md): tenants' subscriptions to task events, the URL a task names for its
-- own end, the secrets deliveries are signed with, and the delivery log with every attempt.
-- Runs inside the migration transaction (see src/stores/migrate.ts); the same text on PGlite and PostgreSQL.
--
-- Secrets must be read back to sign, so they cannot be hashed like API keys: each is stored sealed
-- (AES-256-GCM under WEBHOOK_SECRET_KEY, `v1:` prefix) or, without that key, as `plain:` text
-- protected only by the database's own access control (src/webhooks/secret-box.ts).

create table webhook_subscriptions (
  id          text primary key,
  tenant      text not null,
  url         text not null,
  -- The event types delivered, e.g. {task.completed,task.failed}.
  events      text[] not null,
  description text,
  secret      text not null,
  created_at  timestamptz not null default now()
);
create index webhook_subscriptions_tenant_created on webhook_subscriptions (tenant, created_at, id);

-- One secret per tenant, created on first use: it signs deliveries to the URLs tasks name.
create table webhook_tenant_secrets (
  tenant     text primary key,
  secret     text not null,
  created_at timestamptz not null default now()
);

-- The `webhook_url` of a task; gone with the task.
create table task_webhooks (
  task_id text primary key references tasks (task_id) on delete cascade,
  url     text not null
);

-- One row per event and receiver. The body is fixed when the delivery is queued, so every attempt
-- sends the same bytes (signed afresh with the attempt's timestamp).
create table webhook_deliveries (
  id              text primary key,
  tenant          text not null,
  -- Null for a task's own webhook_url.
  subscription_id text references webhook_subscriptions (id) on delete cascade,
  task_id         text references tasks (task_id) on delete cascade,
  event           text not null,
  url             text not null,
  body            text not null,
  state           text not null default 'pending' check (state in ('pending', 'delivered', 'failed')),
  attempts        integer not null default 0,
  next_attempt_at timestamptz,
  last_status     integer,
  last_error      text,
  created_at      timestamptz not null default now(),
  updated_at      timestamptz not null default now()
);
create index webhook_deliveries_subscription on webhook_deliveries (subscription_id, created_at, id);
create index webhook_deliveries_task on webhook_deliveries (task_id, created_at, id);

-- Every attempt of a delivery: when, how long, the receiver's status code or the error.
create table webhook_attempts (
  delivery_id text not null references webhook_deliveries (id) on delete cascade,
  attempt     integer not null,
  started_at  timestamptz not null,
  duration_ms integer not null,
  status_code integer,
  error       text,
  primary key (delivery_id, attempt)
);
