/** What the reflex routes need, assembled by the composition root (`src/app.ts`). */
import type { CheckEndpoint, Detector } from '@ganglion/reflex'
import type { AuthStatus } from '../auth/principal.js'
import type { RateLimits } from '../http/rate-limit.js'
import type { RateLimitStore } from '../stores/rate-limit-store.js'
import type { TieredCacheStore } from '../stores/tiered-cache-store.js'

export interface ReflexDeps {
  detector: Detector
  /** The in-process tier, with the Redis tier behind it when REDIS_URL is set. */
  cache: TieredCacheStore
  limiter: RateLimitStore
  limits: RateLimits
  /**
   * The check route's one native call, over the same detector and the in-process cache tier and
   * limiter: set by the composition root when those are the only ones (no Redis). See check-route.ts.
   */
  endpoint?: CheckEndpoint
  /** Default time-to-live of cache entries (CACHE_TTL). */
  cacheTtlSeconds: number
  /** Salt of the `hash` redaction mode: a server secret, so digests cannot be brute-forced off-box. */
  hashSalt: string
  startedAt: Date
  version: string
  /** How the service authenticates, for the health reply. */
  auth: AuthStatus
}
