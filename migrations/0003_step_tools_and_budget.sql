-- The arms: each step names the arm's tool and carries its parameters and, once done, the
-- provenance of its result; each task keeps a token ledger for its budget and counts its re-plans.
-- Runs inside the migration transaction (see src/stores/migrate.ts); the same text on PGlite and PostgreSQL.

alter table task_steps add column tool text;
alter table task_steps add column input jsonb not null default '{}'::jsonb;
alter table task_steps add column provenance jsonb;

-- The budget (constraints.max_tokens / budget.max_tokens) is held across every model call: a step
-- reserves before its arm is called and settles what it really spent after. Both move under the
-- task row lock, so parallel steps in several processes can never together overspend.
alter table tasks add column tokens_reserved bigint not null default 0;
alter table tasks add column tokens_used bigint not null default 0;
-- A failed validation may re-plan a task once.
alter table tasks add column replans integer not null default 0;
