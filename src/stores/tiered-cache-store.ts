/**
 * The in-process tier in front of the shared Redis tier.
 *
 * ```ts
 * const cache = new TieredCacheStore(new MemoryCacheStore(new CacheTier()), new RedisCacheStore(redis), { log })
 * await cache.get(key) // local, else Redis (and the local tier is filled for the remaining TTL)
 * cache.health()       // { redis: 'up' | 'down' | 'disabled', ... }
 * ```
 *
 * Redis is an accelerator, never a dependency: while it is down (or its circuit is open) every call
 * is answered by the local tier without waiting on the network, writes that could not reach Redis
 * are logged and counted in `health()`, and the keys they touched are deleted from Redis once it is
 * back, so an older value stored there before the outage cannot come back through a later fill.
 *
 * A local entry filled from Redis reports the fill time as `createdAt` on later local hits (the
 * addon stamps its own entries); its expiry is Redis's.
 */
import { CACHE_ERRORS, type CacheEntry, CacheError, type CacheStore, hitRate, type TierStats } from './cache-store.js'
import { type Logger, type RedisHealth, warnEvery } from './redis-client.js'

/** What the tiered store needs from its remote tier beyond the port (RedisCacheStore has it). */
export interface RemoteCacheStore extends CacheStore {
  readonly available: boolean
  health(): RedisHealth
  onRecover(listener: () => void): () => void
}

export interface TieredCacheStoreOptions {
  log?: Logger
  /** Keys remembered for deletion from Redis after an outage (default 10,000). */
  maxPendingInvalidations?: number
}

export interface TieredStats extends TierStats {
  tier: 'tiered'
  /** The local tier first, then Redis when configured. */
  tiers: TierStats[]
}

export interface CacheHealth extends RedisHealth {
  /** Remote calls that failed since start (each one also logged). */
  remote_failures: number
  /** Keys to delete from Redis when it is back. */
  pending_invalidations: number
}

const silent: Logger = { warn() {}, info() {} }

export class TieredCacheStore implements CacheStore {
  readonly #local: CacheStore
  readonly #remote: RemoteCacheStore | undefined
  readonly #log: Logger
  readonly #warn: (obj: object, msg: string) => void
  readonly #maxPending: number
  readonly #pending = new Set<string>()
  #pendingOverflowed = false
  #hits = 0
  #misses = 0
  #remoteFailures = 0

  constructor(local: CacheStore, remote?: RemoteCacheStore, opts: TieredCacheStoreOptions = {}) {
    this.#local = local
    this.#remote = remote
    this.#log = opts.log ?? silent
    this.#warn = warnEvery(this.#log)
    this.#maxPending = opts.maxPendingInvalidations ?? 10_000
    remote?.onRecover(() => void this.#flushInvalidations())
  }

  /**
   * True when a Redis tier is configured (up or down): a lookup may then find what another
   * instance stored, so the check path must ask this store rather than the addon's tier alone.
   */
  get shared(): boolean {
    return this.#remote !== undefined
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    const local = await this.#local.get(key)
    if (local !== undefined) {
      this.#hits++
      return local
    }
    const remote = await this.#remoteCall('get', key, (r) => r.get(key))
    if (remote === undefined) {
      this.#misses++
      return undefined
    }
    this.#hits++
    const remainingSeconds = (remote.expiresAt.getTime() - Date.now()) / 1000
    if (remainingSeconds > 0) {
      // A value too large for the local tier is simply served from Redis each time.
      await this.#local.set(key, remote.valueJson, remainingSeconds).catch(() => undefined)
    }
    return remote
  }

  async set(key: string, valueJson: string, ttlSeconds: number): Promise<CacheEntry> {
    let local: CacheEntry | undefined
    let localError: unknown
    try {
      local = await this.#local.set(key, valueJson, ttlSeconds)
    } catch (err) {
      // Too large for the local tier may still fit Redis; anything else (a bad TTL) is the caller's.
      if (!isTooLarge(err)) throw err
      localError = err
    }
    let remote: CacheEntry | undefined
    try {
      remote = await this.#remoteCall('set', key, (r) => r.set(key, valueJson, ttlSeconds))
    } catch (err) {
      // Redis refused the size: it dropped its older value; the local entry (if any) still stands.
      if (local === undefined) throw err
    }
    if (local !== undefined) return local
    if (remote !== undefined) return remote
    throw localError
  }

  async delete(key: string): Promise<boolean> {
    const local = await this.#local.delete(key)
    const remote = await this.#remoteCall('delete', key, (r) => r.delete(key))
    return local || remote === true
  }

  async stats(): Promise<TieredStats> {
    const local = await this.#local.stats()
    const tiers = [local]
    let entries = local.entries
    let evictions = local.evictions
    if (this.#remote !== undefined) {
      const remote = await this.#remote.stats()
      tiers.push(remote)
      // Redis holds what every instance stored, so while it answers its count is the service's.
      if (remote.available) entries = remote.entries
      evictions += remote.evictions
    }
    // With no shared tier the check route looks up in the addon directly, not through get():
    // then the local tier's own counters are the complete record of lookups.
    const hits = this.#remote === undefined ? local.hits : this.#hits
    const misses = this.#remote === undefined ? local.misses : this.#misses
    return {
      tier: 'tiered',
      hits,
      misses,
      hit_rate: hitRate(hits, misses),
      entries,
      ...(local.bytes === undefined ? {} : { bytes: local.bytes }),
      evictions,
      // The local tier always answers.
      available: true,
      tiers,
    }
  }

  health(): CacheHealth {
    const redis: RedisHealth = this.#remote?.health() ?? { redis: 'disabled' }
    return { ...redis, remote_failures: this.#remoteFailures, pending_invalidations: this.#pending.size }
  }

  /**
   * Runs `op` on the remote tier unless it is known to be unavailable. Unavailability and transport
   * failures return undefined (and remember `key` for invalidation on writes); a `CacheError` from
   * the remote (value too large) is rethrown for the caller to judge.
   */
  async #remoteCall<T>(what: 'get' | 'set' | 'delete', key: string, op: (r: RemoteCacheStore) => Promise<T>): Promise<T | undefined> {
    const remote = this.#remote
    if (remote === undefined) return undefined
    if (remote.available) {
      try {
        const result = await op(remote)
        if (what !== 'get') this.#pending.delete(key)
        return result
      } catch (err) {
        if (err instanceof CacheError) throw err
        this.#remoteFailures++
        this.#warn({ err, op: what, key }, 'redis cache tier call failed: answered by the in-process tier')
      }
    }
    if (what !== 'get') this.#rememberInvalidation(key)
    return undefined
  }

  #rememberInvalidation(key: string): void {
    if (this.#pending.size < this.#maxPending) {
      this.#pending.add(key)
    } else if (!this.#pendingOverflowed) {
      this.#pendingOverflowed = true
      this.#log.warn({ max: this.#maxPending }, 'too many writes missed redis: some stale entries may survive there until their TTL')
    }
  }

  async #flushInvalidations(): Promise<void> {
    const remote = this.#remote
    if (remote === undefined || this.#pending.size === 0) return
    const keys = [...this.#pending]
    this.#pending.clear()
    this.#pendingOverflowed = false
    for (const key of keys) {
      try {
        await remote.delete(key)
      } catch {
        // down again: keep the rest for the next recovery
        for (const rest of keys.slice(keys.indexOf(key))) this.#rememberInvalidation(rest)
        return
      }
    }
  }
}

function isTooLarge(err: unknown): boolean {
  return err instanceof CacheError && err.code === CACHE_ERRORS.valueTooLarge
}
