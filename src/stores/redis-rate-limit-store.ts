/**
 * Global token buckets in Redis, shared by every instance; the in-process buckets take over while
 * Redis cannot be reached (limits stay, per instance, never unlimited).
 *
 * ```ts
 * const limits = new RedisRateLimitStore(redis, new MemoryRateLimitStore(new RateLimiter()))
 * await limits.take('ip:203.0.113.9', { capacity: 100, windowMs: 60_000 })
 * limits.health() // { redis: 'up', fallback_decisions: 0 }
 * ```
 *
 * One Lua script does the whole take atomically (EVALSHA through ioredis's `defineCommand`, which
 * re-sends it as EVAL on NOSCRIPT). It reads the clock with Redis's TIME, so instances with
 * drifting clocks share one timeline. The bucket is a hash `{tokens, ts, w}` at `<prefix>rl:<key>`
 * whose PEXPIRE is the time until it is full again: a missing bucket is a full one.
 *
 * `tokens` is kept scaled by the window (token·ms), so refill (`elapsed × capacity`), cost
 * (`cost × windowMs`) and the waits (`⌈missing / capacity⌉` ms) are integer arithmetic: exact while
 * capacity × windowMs stays below 2^53, which `take` checks. Windows are whole milliseconds, as in
 * the addon, and the answers are the addon's to the millisecond (a cost above the capacity gets a
 * whole window as retry-after). `w` is the window the level was counted in: when a key's limit
 * changes, its tokens carry over, capped at the new capacity, as in the addon.
 */
import { assertLimit, type Decision, type Limit, RateLimitError, type RateLimitStore } from './rate-limit-store.js'
import { type Logger, type RedisConnection, type RedisHealth, type RedisScript, warnEvery } from './redis-client.js'

export interface RedisRateLimitStoreOptions {
  /** Prefix of every key this store writes (default `ganglion:`). */
  prefix?: string
  log?: Logger
}

export interface RateLimitHealth extends RedisHealth {
  /** Decisions taken by the in-process buckets because Redis could not be asked. */
  fallback_decisions: number
}

// KEYS: bucket. ARGV: capacity, windowMs, cost. Returns {allowed, remaining, resetMs, retryAfterMs};
// retryAfterMs is -1 when cost > capacity (never payable).
const TAKE = `local capacity = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local full = capacity * window
local b = redis.call('HMGET', KEYS[1], 'tokens', 'ts', 'w')
local level = tonumber(b[1])
local ts = tonumber(b[2])
local w = tonumber(b[3])
if level == nil or ts == nil or w == nil or w <= 0 then
  level = full
  ts = now
elseif w ~= window then
  level = math.floor(level * window / w)
end
level = math.min(level, full)
if now > ts then
  level = math.min(full, level + (now - ts) * capacity)
  ts = now
end
local need = cost * window
local allowed = 0
local retry = 0
if cost > capacity then
  retry = -1
elseif level >= need then
  level = level - need
  allowed = 1
else
  retry = math.ceil((need - level) / capacity)
end
local reset = math.ceil((full - level) / capacity)
redis.call('HSET', KEYS[1], 'tokens', level, 'ts', ts, 'w', window)
redis.call('PEXPIRE', KEYS[1], math.max(reset, 1))
return {allowed, math.floor(level / window), reset, retry}`

export class RedisRateLimitStore implements RateLimitStore {
  readonly #redis: RedisConnection
  readonly #fallback: RateLimitStore
  readonly #prefix: string
  readonly #warn: (obj: object, msg: string) => void
  readonly #take: RedisScript
  #fallbackDecisions = 0

  /** `fallback` decides while Redis is down; pass the in-process `MemoryRateLimitStore`. */
  constructor(redis: RedisConnection, fallback: RateLimitStore, opts: RedisRateLimitStoreOptions = {}) {
    this.#redis = redis
    this.#fallback = fallback
    this.#prefix = `${opts.prefix ?? 'ganglion:'}rl:`
    this.#warn = warnEvery(opts.log)
    this.#take = redis.script('ganglionRateLimitTake', 1, TAKE)
  }

  async take(key: string, limit: Limit, cost = 1): Promise<Decision> {
    assertLimit(limit, cost)
    const windowMs = Math.floor(limit.windowMs)
    if (limit.capacity * windowMs > Number.MAX_SAFE_INTEGER) {
      throw new RateLimitError(`capacity × windowMs must stay below 2^53, got ${limit.capacity} × ${windowMs}`)
    }
    if (this.#redis.available) {
      try {
        const reply = await this.#redis.run(() => this.#take(this.#prefix + key, limit.capacity, windowMs, cost))
        return decision(reply, limit.capacity, windowMs)
      } catch (err) {
        // Any failure, a refused write (OOM) included, must not turn into "unlimited": decide locally.
        this.#warn({ err, key }, 'redis rate limit failed: decided by the in-process bucket')
      }
    }
    this.#fallbackDecisions++
    return this.#fallback.take(key, limit, cost)
  }

  health(): RateLimitHealth {
    return { ...this.#redis.health(), fallback_decisions: this.#fallbackDecisions }
  }
}

function decision(reply: unknown, capacity: number, windowMs: number): Decision {
  const [allowed, remaining, resetMs, retryAfterMs] = (reply as number[]).map(Number) as [number, number, number, number]
  return {
    allowed: allowed === 1,
    limit: capacity,
    remaining,
    resetMs,
    // A cost above the capacity is never payable; the addon answers with a whole window.
    retryAfterMs: retryAfterMs < 0 ? windowMs : retryAfterMs,
  }
}
