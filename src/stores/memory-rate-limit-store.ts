/**
 * Token buckets in this process: the addon's limiter behind the `RateLimitStore` port. Limits are
 * per instance; `RedisRateLimitStore` makes them global and falls back to this one.
 *
 * ```ts
 * const limits = new MemoryRateLimitStore(createEngine({ rateLimitMaxKeys: 100_000 }))
 * ```
 */
import type { ReflexEngine } from '../reflex/engine.js'
import { assertLimit, type Decision, type Limit, type RateLimitStore } from './rate-limit-store.js'

export class MemoryRateLimitStore implements RateLimitStore {
  readonly #engine: ReflexEngine

  constructor(engine: ReflexEngine) {
    this.#engine = engine
  }

  /** Whether its buckets are `engine`'s own (a native call on `engine` then takes the same tokens). */
  isOver(engine: ReflexEngine): boolean {
    return this.#engine === engine
  }

  async take(key: string, limit: Limit, cost = 1): Promise<Decision> {
    return this.takeSync(key, limit, cost)
  }

  takeSync(key: string, limit: Limit, cost = 1): Decision {
    assertLimit(limit, cost)
    const d = this.#engine.rateLimit(key, limit.capacity, limit.windowMs, cost)
    return { allowed: d.allowed, limit: d.limit, remaining: d.remaining, resetMs: d.resetMs, retryAfterMs: d.retryAfterMs }
  }
}
