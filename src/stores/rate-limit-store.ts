/**
 * The rate-limit port: token buckets by key (`ip:<addr>`, `user:<id>`), one `take` per request.
 *
 * ```ts
 * const d = await limits.take(`ip:${ip}`, { capacity: 100, windowMs: 60_000 })
 * if (!d.allowed) reply429(d.retryAfterMs, d) // Retry-After, RateLimit-Limit/Remaining/Reset
 * ```
 *
 * A bucket holds `capacity` tokens and refills continuously at `capacity / windowMs`; a request
 * costs `cost` tokens (default 1). A cost above the capacity can never be paid and is refused.
 *
 * Left out on purpose: peeking without taking, refunds, resetting a key, and listing keys. The
 * reflex layer needs only the decision, and each extra verb would be one more Lua script that must
 * agree with the in-process bucket.
 */

export interface Limit {
  /** Tokens a full bucket holds: the burst, and the count allowed per window. Integer ≥ 1. */
  capacity: number
  /** Time for an empty bucket to fill, in ms (> 0). */
  windowMs: number
}

export interface Decision {
  allowed: boolean
  /** The capacity, for `RateLimit-Limit`. */
  limit: number
  /** Whole tokens left after this request, for `RateLimit-Remaining`. */
  remaining: number
  /** Milliseconds until the bucket is full again, for `RateLimit-Reset`. */
  resetMs: number
  /** Milliseconds until this request could pass; 0 when allowed. For `Retry-After`. */
  retryAfterMs: number
}

export interface RateLimitStore {
  take(key: string, limit: Limit, cost?: number): Promise<Decision>
  /**
   * The same decision without a promise, for stores that answer in-process. The hot routes use
   * it when present: a promise and its await per request were a measurable share of the check
   * route (docs/performance.md#the-check-route-in-one-native-call).
   */
  takeSync?(key: string, limit: Limit, cost?: number): Decision
}

export const RATE_LIMIT_ERRORS = { invalidLimit: 'RATE_LIMIT_ERR_INVALID_LIMIT' } as const

export class RateLimitError extends Error {
  override name = 'RateLimitError'
  readonly code = RATE_LIMIT_ERRORS.invalidLimit
}

const U32_MAX = 0xffff_ffff

/** Throws `RATE_LIMIT_ERR_INVALID_LIMIT` unless capacity and cost are u32 integers and the window > 0. */
export function assertLimit(limit: Limit, cost: number): void {
  const u32 = (n: number) => Number.isInteger(n) && n >= 0 && n <= U32_MAX
  if (!u32(limit.capacity) || limit.capacity < 1) {
    throw new RateLimitError(`capacity must be an integer ≥ 1, got ${limit.capacity}`)
  }
  if (!(Number.isFinite(limit.windowMs) && limit.windowMs >= 1)) {
    throw new RateLimitError(`windowMs must be ≥ 1, got ${limit.windowMs}`)
  }
  if (!u32(cost)) throw new RateLimitError(`cost must be an integer ≥ 0, got ${cost}`)
}
