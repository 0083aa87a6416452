/**
 * The in-process cache tier: the addon's TTL + LRU cache behind the `CacheStore` port.
 *
 * ```ts
 * const store = new MemoryCacheStore(createEngine({ cacheMaxBytes: 64 << 20 }))
 * ```
 *
 * It shares the engine with the check path on purpose: `POST /api/v1/check` answers `cached_value`
 * from this very tier without crossing back into JS.
 */
import type { ReflexEngine } from '../reflex/engine.js'
import { assertTtl, type CacheEntry, type CacheStore, entryBytes, hitRate, type TierStats, tooLarge } from './cache-store.js'

export class MemoryCacheStore implements CacheStore {
  readonly #engine: ReflexEngine

  constructor(engine: ReflexEngine) {
    this.#engine = engine
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    const found = this.#engine.cacheGet(key)
    if (found === null) return undefined
    return { key, valueJson: found.value, createdAt: new Date(found.createdAtMs), expiresAt: new Date(found.expiresAtMs) }
  }

  async set(key: string, valueJson: string, ttlSeconds: number): Promise<CacheEntry> {
    assertTtl(key, ttlSeconds)
    // Read the clock before the addon does, so createdAt is never later than the core's own stamp.
    const now = Date.now()
    // The addon truncates seconds × 1000 to whole milliseconds and refuses 0 ms (born expired): keep
    // at least 1 ms so that, with the TTL checked above, the only refusal left is size (entry larger
    // than cacheMaxBytes); the half millisecond keeps 1.001 × 1000 = 1000.999… from losing one.
    const ttlMs = Math.max(1, Math.floor(ttlSeconds * 1000))
    if (!this.#engine.cacheSet(key, valueJson, (ttlMs + 0.5) / 1000)) throw tooLarge(key, entryBytes(key, valueJson), 'in-process')
    return { key, valueJson, createdAt: new Date(now), expiresAt: new Date(now + ttlMs) }
  }

  async delete(key: string): Promise<boolean> {
    return this.#engine.cacheDelete(key)
  }

  async stats(): Promise<TierStats> {
    const s = this.#engine.cacheStats()
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
