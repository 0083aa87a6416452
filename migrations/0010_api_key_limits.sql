-- Rate limits of one API key (docs/cache-and-limits.md): requests per minute it may make, writes
-- and reads apart. Null: the server's defaults (RATE_LIMIT_PER_USER, RATE_LIMIT_READS_PER_USER);
-- 0: no limit, for a trusted gateway that screens all of a deployment's traffic from one key.
alter table api_keys add column rate_limit integer check (rate_limit >= 0);
alter table api_keys add column read_rate_limit integer check (read_rate_limit >= 0);
