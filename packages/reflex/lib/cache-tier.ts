/**
 * An in-process cache tier of JSON values: TTL + LRU, bounded by entries and by bytes. Every
 * operation is O(1); expired entries are never returned.
 *
 * ```ts
 * const cache = new CacheTier({ maxBytes: 64 << 20 })
 * cache.set(result.cache_key, JSON.stringify({ answer: 42 }), 3600)
 * JSON.parse(cache.get(result.cache_key)!.value) // { answer: 42 }
 * ```
 *
 * Values are JSON texts, checked when stored: a check endpoint sends a hit's value as it is.
 */
import { CacheTier as NativeCacheTier } from '../bindings/index.js'
import { assertNumber, assertOptions, assertString, coded } from './errors.js'
import type { CacheEntry, CacheTierOptions, CacheTierStats } from './types.js'

const natives = new WeakMap<CacheTier, NativeCacheTier>()

export class CacheTier {
  readonly #native: NativeCacheTier

  /** Throws `REFLEX_ERR_INVALID_OPTION` for a bound that is not a whole number from 0. */
  constructor(options: CacheTierOptions = {}) {
    assertOptions('options', options)
    this.#native = coded(() => new NativeCacheTier(options))
    natives.set(this, this.#native)
  }

  /** The live entry under `key`, or undefined; counts a hit or a miss. */
  get(key: string): CacheEntry | undefined {
    assertString('key', key)
    const found = this.#native.get(key)
    if (found === null) return undefined
    return { key, value: found.value, createdAt: new Date(found.createdAtMs), expiresAt: new Date(found.expiresAtMs) }
  }

  /**
   * Stores the JSON text `value` under `key` for `ttlSeconds` (rounded to whole milliseconds, at least one),
   * replacing what was there. Throws `REFLEX_ERR_INVALID_VALUE` unless `value` is one JSON document,
   * `REFLEX_ERR_VALUE_TOO_LARGE` when the entry alone is larger than the tier (an older value under
   * `key` is removed then too, so it never answers stale), `REFLEX_ERR_INVALID_OPTION` for a lifetime
   * under 1 ms.
   */
  set(key: string, value: string, ttlSeconds: number): CacheEntry {
    assertString('key', key)
    assertString('value', value)
    assertNumber('ttlSeconds', ttlSeconds)
    // Read the clock before the addon does, so createdAt is never later than the tier's own stamp.
    const now = Date.now()
    const ttlMs = Math.round(ttlSeconds * 1000)
    coded(() => this.#native.set(key, value, ttlMs))
    return { key, value, createdAt: new Date(now), expiresAt: new Date(now + ttlMs) }
  }

  /** Removes `key`; true when a live entry was there. */
  delete(key: string): boolean {
    assertString('key', key)
    return this.#native.delete(key)
  }

  stats(): CacheTierStats {
    return this.#native.stats()
  }
}

/** `cache`'s addon object. */
export function nativeCacheTier(cache: CacheTier): NativeCacheTier {
  return natives.get(cache)!
}
