-- What a task's model calls cost in US dollars, for `budget.max_cost_usd` (docs/security.md,
-- "Quotas"): charged after each call at the configured price and held before it, beside
-- tokens_used and tokens_reserved. A constant default fills the columns without rewriting the table.
alter table tasks add column cost_used_usd double precision not null default 0;
alter table tasks add column cost_reserved_usd double precision not null default 0;
