/** What the reflex routes need, assembled by the composition root (`src/app.ts`). */

import type { RateLimits } from '../http/rate-limit.js'
import type { RateLimitStore } from '../stores/rate-limit-store.js'
import type { TieredCacheStore } from '../stores/tiered-cache-store.js'
import type { ReflexEngine } from './engine.js'

export interface ReflexDeps {
  engine: ReflexEngine
  /** The in-process tier, with the Redis tier behind it when REDIS_URL is set. */
  cache: TieredCacheStore
  /**
   * When this is a `MemoryRateLimitStore` over `engine`, the check route takes its token in the
   * same native call as the check (check-route.ts), from `engine`'s own limiter; any other limiter
   * (Redis, a store over another engine) is asked the usual way.
   */
  limiter: RateLimitStore
  limits: RateLimits
  /** Default time-to-live of cache entries (CACHE_TTL). */
  cacheTtlSeconds: number
  /** Salt of the `hash` redaction mode: a server secret, so digests cannot be brute-forced off-box. */
  hashSalt: string
  startedAt: Date
  version: string
}
