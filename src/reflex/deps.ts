/** What the reflex routes need, assembled by the composition root (`src/app.ts`). */
import type { AnswerKeys, CheckEndpoint, Detector } from '@ganglion/reflex'
import type { AuthStatus } from '../auth/principal.js'
import type { RedisHealth } from '../stores/redis-client.js'
import type { TieredCacheStore } from '../stores/tiered-cache-store.js'

export interface ReflexDeps {
  detector: Detector
  /** The in-process tier, with the Redis tier behind it when REDIS_URL is set. */
  cache: TieredCacheStore
  /** Where tenants' stored answers live in `cache`: the keys a check looks its answer up by. */
  answerKeys: AnswerKeys
  /**
   * The check route's one native call, over the same detector, answer keys and the in-process cache
   * tier: set by the composition root when that tier is the only one (no Redis). See check-route.ts.
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
  /** The Redis of the rate-limit buckets, when RATE_LIMIT_REDIS_URL names one apart from the cache's. */
  limitsHealth?: () => RedisHealth
}
