/**
 * Token buckets by key: a bucket holds `capacity` tokens and refills continuously at
 * `capacity / windowMs`; each request takes `cost` tokens (default 1).
 *
 * ```ts
 * const limiter = new RateLimiter()
 * const d = limiter.take(`ip:${ip}`, { capacity: 100, windowMs: 60_000 })
 * if (!d.allowed) reply429(Math.ceil(d.retryAfterMs / 1000))
 * ```
 *
 * Memory stays bounded by `maxKeys`: when a new key arrives at the bound, buckets that have
 * refilled completely go first (a new key gets a full bucket anyway); only when none has is the
 * least recently used one dropped, forgetting its debt.
 */
import { RateLimiter as NativeRateLimiter } from '../bindings/index.js'
import { assertNumber, assertOptions, assertString, coded, REFLEX_ERRORS, ReflexError } from './errors.js'
import type { Limit, RateLimitDecision, RateLimiterOptions } from './types.js'

const natives = new WeakMap<RateLimiter, NativeRateLimiter>()

const U32_MAX = 0xffff_ffff

export class RateLimiter {
  readonly #native: NativeRateLimiter

  /** Throws `REFLEX_ERR_INVALID_OPTION` for a bound that is not a whole number from 0. */
  constructor(options: RateLimiterOptions = {}) {
    assertOptions('options', options)
    this.#native = coded(() => new NativeRateLimiter(options))
    natives.set(this, this.#native)
  }

  /**
   * Takes `cost` tokens from `key`'s bucket if it has them. A cost above the capacity can never be
   * paid and is refused. Throws `REFLEX_ERR_INVALID_OPTION` for a capacity or cost that is not an
   * integer in range, or a window under 1 ms.
   */
  take(key: string, limit: Limit, cost = 1): RateLimitDecision {
    assertString('key', key)
    assertLimit(limit, cost)
    return coded(() => this.#native.take(key, limit, cost))
  }
}

/**
 * Throws `REFLEX_ERR_INVALID_ARGUMENT` unless `limit` is an object of numbers and `cost` a number,
 * and `REFLEX_ERR_INVALID_OPTION` unless capacity and cost are 32-bit integers (capacity ≥ 1) and
 * the window is at least 1 ms.
 */
export function assertLimit(limit: Limit, cost = 1): void {
  assertOptions('limit', limit, false)
  assertNumber('limit.capacity', limit.capacity)
  assertNumber('limit.windowMs', limit.windowMs)
  assertNumber('cost', cost)
  const u32 = (n: number) => Number.isInteger(n) && n >= 0 && n <= U32_MAX
  if (!u32(limit.capacity) || limit.capacity < 1) {
    throw new ReflexError(REFLEX_ERRORS.invalidOption, `capacity must be an integer ≥ 1, not ${limit.capacity}`)
  }
  if (!(Number.isFinite(limit.windowMs) && limit.windowMs >= 1)) {
    throw new ReflexError(REFLEX_ERRORS.invalidOption, `windowMs must be ≥ 1, not ${limit.windowMs}`)
  }
  if (!u32(cost)) throw new ReflexError(REFLEX_ERRORS.invalidOption, `cost must be an integer ≥ 0, not ${cost}`)
}

/** `limiter`'s addon object. */
export function nativeRateLimiter(limiter: RateLimiter): NativeRateLimiter {
  return natives.get(limiter)!
}
