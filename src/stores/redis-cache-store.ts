/**
 * The shared cache tier in Redis: every instance reads what any instance stored.
 *
 * ```ts
 * const store = new RedisCacheStore(await connectRedis(url))
 * await store.set('k', '{"a":1}', 60) // one EVALSHA: HSET + PEXPIRE + index
 * ```
 *
 * Layout, under `prefix` (default `ganglion:`):
 * - `<prefix>cache:<key>`: a hash `{v: valueJson, c: createdAtMs}` with a PX expiry. `c` comes from
 *   the Redis server's TIME, so instances with drifting clocks still agree on it.
 * - `<prefix>cache-index`: a sorted set of keys scored by expiry, so `stats().entries` is
 *   ZREMRANGEBYSCORE + ZCARD rather than a SCAN. DBSIZE would count every namespace; a plain counter
 *   would never learn about expirations. (Keys evicted by a `maxmemory` policy stay counted until
 *   their expiry; evictions are server-wide in Redis, so `evictions` is reported as 0.)
 *
 * Each operation is one Lua script, one round trip and atomic. Hits and misses are counted in this
 * process. Standalone or Sentinel Redis: a Cluster would need the key and the index in one hash slot.
 * Failures surface as `RedisUnavailableError` (see redis-client.ts); the tiered store absorbs them.
 */
import { assertTtl, type CacheEntry, type CacheStore, entryBytes, hitRate, type TierStats, tooLarge } from './cache-store.js'
import type { RedisConnection, RedisHealth, RedisScript } from './redis-client.js'

export interface RedisCacheStoreOptions {
  /** Prefix of every key this store writes (default `ganglion:`); tests use one per file. */
  prefix?: string
  /** Largest key + value accepted, in bytes (default 16 MiB; Redis itself stops at 512 MB). */
  maxEntryBytes?: number
}

const now = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`

// KEYS: entry, index. ARGV: valueJson, ttlMs, key. Returns createdAtMs (server clock).
const SET = `${now}local ttl = tonumber(ARGV[2])
redis.call('HSET', KEYS[1], 'v', ARGV[1], 'c', now)
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('ZADD', KEYS[2], now + ttl, ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
return now`

// KEYS: entry. Returns false or {valueJson, createdAtMs, pttl}.
const GET = `local e = redis.call('HMGET', KEYS[1], 'v', 'c')
if not e[1] then return false end
return {e[1], e[2], redis.call('PTTL', KEYS[1])}`

// KEYS: entry, index. ARGV: key. Returns 1 when a live entry went.
const DELETE = `redis.call('ZREM', KEYS[2], ARGV[1])
return redis.call('DEL', KEYS[1])`

// KEYS: index. Returns the live entries.
const COUNT = `${now}redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return redis.call('ZCARD', KEYS[1])`

export class RedisCacheStore implements CacheStore {
  readonly #redis: RedisConnection
  readonly #prefix: string
  readonly #index: string
  readonly #maxEntryBytes: number
  readonly #set: RedisScript
  readonly #get: RedisScript
  readonly #delete: RedisScript
  readonly #count: RedisScript
  #hits = 0
  #misses = 0
  #entries = 0

  constructor(redis: RedisConnection, opts: RedisCacheStoreOptions = {}) {
    this.#redis = redis
    this.#prefix = `${opts.prefix ?? 'ganglion:'}cache:`
    this.#index = `${opts.prefix ?? 'ganglion:'}cache-index`
    this.#maxEntryBytes = opts.maxEntryBytes ?? 16 * 1024 * 1024 // 16 MiB
    this.#set = redis.script('ganglionCacheSet', 2, SET)
    this.#get = redis.script('ganglionCacheGet', 1, GET)
    this.#delete = redis.script('ganglionCacheDelete', 2, DELETE)
    this.#count = redis.script('ganglionCacheCount', 1, COUNT)
  }

  /** False while a call would fail at once (circuit open or not connected): callers skip it. */
  get available(): boolean {
    return this.#redis.available
  }

  health(): RedisHealth {
    return this.#redis.health()
  }

  onRecover(listener: () => void): () => void {
    return this.#redis.onRecover(listener)
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    const reply = await this.#redis.run(() => this.#get(this.#prefix + key))
    const at = Date.now()
    if (!Array.isArray(reply)) {
      this.#misses++
      return undefined
    }
    const [valueJson, createdAtMs, pttl] = reply as [string, string, number]
    this.#hits++
    // PTTL, not a stored expiry, so a clock skew between this host and Redis never lengthens a life.
    // -1 (no expiry) only happens to a hash someone else wrote; treat it as expiring now.
    return { key, valueJson, createdAt: new Date(Number(createdAtMs)), expiresAt: new Date(at + Math.max(pttl, 0)) }
  }

  async set(key: string, valueJson: string, ttlSeconds: number): Promise<CacheEntry> {
    assertTtl(key, ttlSeconds)
    const bytes = entryBytes(key, valueJson)
    if (bytes > this.#maxEntryBytes) {
      // Same contract as the in-process tier: a refused replace leaves no stale value behind (when
      // Redis can be reached; the size error is the one worth reporting either way).
      await this.delete(key).catch(() => false)
      throw tooLarge(key, bytes, 'redis')
    }
    const ttlMs = Math.max(1, Math.floor(ttlSeconds * 1000))
    const createdAtMs = Number(await this.#redis.run(() => this.#set(this.#prefix + key, this.#index, valueJson, ttlMs, key)))
    return { key, valueJson, createdAt: new Date(createdAtMs), expiresAt: new Date(createdAtMs + ttlMs) }
  }

  async delete(key: string): Promise<boolean> {
    return (await this.#redis.run(() => this.#delete(this.#prefix + key, this.#index, key))) === 1
  }

  async stats(): Promise<TierStats> {
    const available = this.#redis.available
    if (available) {
      try {
        this.#entries = Number(await this.#redis.run(() => this.#count(this.#index)))
      } catch {
        // stats must answer while Redis is down: report the last count, marked unavailable
      }
    }
    return {
      tier: 'redis',
      hits: this.#hits,
      misses: this.#misses,
      hit_rate: hitRate(this.#hits, this.#misses),
      entries: this.#entries,
      evictions: 0,
      available: this.#redis.available,
    }
  }
}
