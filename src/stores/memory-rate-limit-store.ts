/**
 * Token buckets in this process: `@ganglion/reflex`'s `RateLimiter` behind the `RateLimitStore`
 * port. Limits are per process; `RedisRateLimitStore` makes them global and falls back to this one.
 *
 * ```ts
 * const limits = new MemoryRateLimitStore(new RateLimiter({ maxKeys: 100_000 }))
 * ```
 */
import type { RateLimiter } from '@ganglion/reflex'
import { assertLimit, type Decision, type Limit, type RateLimitStore } from './rate-limit-store.js'

export class MemoryRateLimitStore implements RateLimitStore {
  readonly #limiter: RateLimiter

  constructor(limiter: RateLimiter) {
    this.#limiter = limiter
  }

  async take(key: string, limit: Limit, cost = 1): Promise<Decision> {
    return this.takeSync(key, limit, cost)
  }

  takeSync(key: string, limit: Limit, cost = 1): Decision {
    assertLimit(limit, cost)
    return this.#limiter.take(key, limit, cost)
  }
}
