/**
 * The cache port: where `/api/v1/cache` and the orchestrator's stored results live.
 *
 * ```ts
 * const entry = await store.set('k', JSON.stringify({ answer: 42 }), 60)
 * const hit = await store.get('k') // { key: 'k', valueJson: '{"answer":42}', createdAt, expiresAt }
 * ```
 *
 * Values cross the port as serialised JSON (`valueJson`), never as JS values: the in-process tier
 * holds strings in Rust and Redis holds bytes, so a tiered store copying between them (and the check
 * path answering `cached_value` straight from the addon) never parses or re-serialises a value.
 * Callers `JSON.stringify` once on the way in and `JSON.parse` once on the way out.
 *
 * Left out on purpose: listing or scanning keys, clearing a namespace, TTL refresh on read and
 * per-entry metadata beyond the two timestamps. The HTTP API needs none of them, and each would force
 * the Redis adapter into SCAN or extra round trips.
 */

/** One live entry. `expiresAt - now` is what `ttl_remaining_seconds` reports. */
export interface CacheEntry {
  key: string
  /** The value exactly as it was stored: serialised JSON. */
  valueJson: string
  createdAt: Date
  expiresAt: Date
}

export type TierName = 'memory' | 'redis' | 'tiered'

/** Counters for `GET /api/v1/stats`; snake_case because they go on the wire as they are. */
export interface TierStats {
  tier: TierName
  hits: number
  misses: number
  /** hits / (hits + misses), 0 before the first lookup. */
  hit_rate: number
  entries: number
  /** Key + value bytes held, where the tier can tell cheaply (the in-process tier can). */
  bytes?: number
  evictions: number
  /** False while the tier cannot be reached (Redis down); its counters are then the last known. */
  available: boolean
}

export interface CacheStore {
  /** The live entry under `key`, or undefined when there is none or it has expired. */
  get(key: string): Promise<CacheEntry | undefined>
  /**
   * Stores `valueJson` for `ttlSeconds` (> 0, fractions allowed), replacing any older value.
   * Throws `CacheError` `CACHE_ERR_VALUE_TOO_LARGE` when the entry is larger than the store takes
   * (the older value is gone then too), `CACHE_ERR_INVALID_TTL` for a TTL that is not > 0.
   */
  set(key: string, valueJson: string, ttlSeconds: number): Promise<CacheEntry>
  /** True when a live entry was removed. */
  delete(key: string): Promise<boolean>
  stats(): Promise<TierStats>
}

/** Stable codes, as the addon's `REFLEX_ERR_*`: callers switch on `err.code`, never on messages. */
export const CACHE_ERRORS = {
  valueTooLarge: 'CACHE_ERR_VALUE_TOO_LARGE',
  invalidTtl: 'CACHE_ERR_INVALID_TTL',
  /** Not one JSON document, or one nested deeper than the in-process tier takes (256 levels). */
  invalidValue: 'CACHE_ERR_INVALID_VALUE',
} as const

export type CacheErrorCode = (typeof CACHE_ERRORS)[keyof typeof CACHE_ERRORS]

export class CacheError extends Error {
  override name = 'CacheError'
  readonly code: CacheErrorCode
  readonly key: string

  constructor(code: CacheErrorCode, key: string, message: string) {
    super(message)
    this.code = code
    this.key = key
  }
}

/** Throws `CACHE_ERR_INVALID_TTL` unless `ttlSeconds` is a finite number > 0. */
export function assertTtl(key: string, ttlSeconds: number): void {
  if (!(Number.isFinite(ttlSeconds) && ttlSeconds > 0)) {
    throw new CacheError(CACHE_ERRORS.invalidTtl, key, `ttl_seconds must be a number > 0, got ${ttlSeconds}`)
  }
}

export function tooLarge(key: string, bytes: number, tier: string): CacheError {
  return new CacheError(CACHE_ERRORS.valueTooLarge, key, `a ${bytes}-byte entry is larger than the ${tier} cache takes`)
}

/** Bytes an entry costs, counted as the in-process tier counts them (UTF-8 key + value). */
export function entryBytes(key: string, valueJson: string): number {
  return Buffer.byteLength(key) + Buffer.byteLength(valueJson)
}

export function hitRate(hits: number, misses: number): number {
  const total = hits + misses
  return total === 0 ? 0 : hits / total
}
