-- Tasks, their plan steps, the numbered event log and idempotency keys.
-- Runs inside the migration transaction (see src/stores/migrate.ts); the same text on PGlite and PostgreSQL.

create table tasks (
  task_id             text primary key,
  status              text not null check (status in
                        ('queued','planning','running','cancelling','completed','failed','cancelled','timed_out','rejected')),
  goal                text not null,
  constraints         jsonb not null default '{}'::jsonb,
  context             jsonb,
  acceptance_criteria jsonb not null default '[]'::jsonb,
  budget              jsonb not null default '{}'::jsonb,
  priority            text not null default 'medium' check (priority in ('low','medium','high','critical')),
  -- Sorting by priority means by rank, not alphabetically; a stored column lets an index serve it.
  priority_rank       smallint generated always as (
                        case priority when 'low' then 0 when 'medium' then 1 when 'high' then 2 else 3 end) stored,
  metadata            jsonb not null default '{}'::jsonb,
  result              jsonb,
  error               jsonb,
  usage               jsonb not null default '{"llm_tokens":{"prompt":0,"completion":0,"total":0},"arm_calls":0}'::jsonb,
  cached              boolean not null default false,
  user_id             text,
  client_ip           text,
  reason              text,              -- why the reflex layer rejected it (status 'rejected')
  cancel_requested_at timestamptz,
  deadline_at         timestamptz,
  created_at          timestamptz not null default now(),
  updated_at          timestamptz not null default now(),
  started_at          timestamptz,
  completed_at        timestamptz,
  version             integer not null default 1,
  -- Last seq handed out in task_events; bumped in the same UPDATE that appends, so the row lock orders appends.
  event_seq           bigint not null default 0
);

-- List queries: one index per sort key, task_id as the tie-breaker that keeps paging stable.
create index tasks_created_at_idx on tasks (created_at, task_id);
create index tasks_updated_at_idx on tasks (updated_at, task_id);
create index tasks_status_created_idx on tasks (status, created_at, task_id);
create index tasks_priority_idx on tasks (priority_rank, created_at, task_id);
create index tasks_user_created_idx on tasks (user_id, created_at) where user_id is not null;
-- Unfinished tasks, for sweeps (timeouts, recovery after a crash).
create index tasks_active_idx on tasks (deadline_at)
  where status in ('queued','planning','running','cancelling');

create table task_steps (
  task_id       text not null references tasks (task_id) on delete cascade,
  step_id       text not null,
  position      integer not null,
  action        text not null,
  arm           text not null,
  depends_on    jsonb not null default '[]'::jsonb,
  status        text not null default 'pending' check (status in
                  ('pending','running','completed','failed','skipped','cancelled')),
  attempts      integer not null default 0,
  -- How many times a worker actually began the step: the exactly-once check counts this.
  executions    integer not null default 0,
  started_at    timestamptz,
  completed_at  timestamptz,
  output        jsonb,
  error         jsonb,
  updated_at    timestamptz not null default now(),
  primary key (task_id, step_id)
);

create table task_events (
  task_id     text not null references tasks (task_id) on delete cascade,
  seq         bigint not null,
  type        text not null,
  data        jsonb not null default '{}'::jsonb,
  created_at  timestamptz not null default now(),
  primary key (task_id, seq)
);

create table idempotency_keys (
  key           text primary key,
  request_hash  text not null,
  -- Deferred: the key is inserted before the task row so a concurrent duplicate waits on the key.
  task_id       text not null references tasks (task_id) on delete cascade deferrable initially deferred,
  created_at    timestamptz not null default now()
);
create index idempotency_keys_created_at_idx on idempotency_keys (created_at);
