/**
 * The in-process cache tier: `@ganglion/reflex`'s TTL + LRU `CacheTier` behind the `CacheStore` port.
 *
 * ```ts
 * const store = new MemoryCacheStore(new CacheTier({ maxBytes: 64 << 20 }))
 * ```
 *
 * The check route's native endpoint reads the same `CacheTier`, so `POST /api/v1/check` answers
 * `cached_value` from this very tier.
 */
import { type CacheTier, REFLEX_ERRORS, ReflexError } from '@ganglion/reflex'
import {
  assertTtl,
  CACHE_ERRORS,
  type CacheEntry,
  CacheError,
  type CacheStore,
  entryBytes,
  hitRate,
  type TierStats,
  tooLarge,
} from './cache-store.js'

export class MemoryCacheStore implements CacheStore {
  readonly #tier: CacheTier

  constructor(tier: CacheTier) {
    this.#tier = tier
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    const found = this.#tier.get(key)
    return found && { key, valueJson: found.value, createdAt: found.createdAt, expiresAt: found.expiresAt }
  }

  async set(key: string, valueJson: string, ttlSeconds: number): Promise<CacheEntry> {
    assertTtl(key, ttlSeconds)
    try {
      // The tier keeps whole milliseconds, at least one: a shorter TTL still stores the entry.
      const entry = this.#tier.set(key, valueJson, Math.max(ttlSeconds, 0.001))
      return { key, valueJson, createdAt: entry.createdAt, expiresAt: entry.expiresAt }
    } catch (err) {
      if (!(err instanceof ReflexError)) throw err
      if (err.code === REFLEX_ERRORS.valueTooLarge) throw tooLarge(key, entryBytes(key, valueJson), 'in-process')
      if (err.code === REFLEX_ERRORS.invalidValue) throw new CacheError(CACHE_ERRORS.invalidValue, key, err.message)
      throw err
    }
  }

  async delete(key: string): Promise<boolean> {
    return this.#tier.delete(key)
  }

  async stats(): Promise<TierStats> {
    const s = this.#tier.stats()
    return {
      tier: 'memory',
      hits: s.hits,
      misses: s.misses,
      hit_rate: hitRate(s.hits, s.misses),
      entries: s.entries,
      bytes: s.bytes,
      evictions: s.evictions,
      available: true,
    }
  }
}
