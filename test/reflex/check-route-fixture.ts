/** The check route over real ports, with or without its native endpoint, called without a server. */
import { CacheTier, CheckEndpoint, Detector, RateLimiter } from '@ganglion/reflex'
import type { Ctx, Reply } from '../../src/http/app.js'
import { checkRoute } from '../../src/reflex/check-route.js'
import type { ReflexDeps } from '../../src/reflex/deps.js'
import { MemoryCacheStore } from '../../src/stores/memory-cache-store.js'
import { MemoryRateLimitStore } from '../../src/stores/memory-rate-limit-store.js'
import type { RateLimitStore } from '../../src/stores/rate-limit-store.js'
import { TieredCacheStore } from '../../src/stores/tiered-cache-store.js'

export const LIMITS = { perIp: 2, perUser: 3, windowMs: 60_000 }

export interface RouteOptions {
  /** Answer through the native endpoint (the embedded deployment) or through the ports only (Redis). */
  native: boolean
  /** Another limiter than the in-process one over the same buckets. */
  limiter?: RateLimitStore
  /** Requests per window per user (default `LIMITS.perUser`). */
  perUser?: number
}

export function checkRouteFixture(options: RouteOptions) {
  const detector = new Detector()
  const tier = new CacheTier()
  const rateLimiter = new RateLimiter()
  const limits = { ...LIMITS, perUser: options.perUser ?? LIMITS.perUser }
  const endpoint = options.native
    ? new CheckEndpoint({ detector, cache: tier, limiter: rateLimiter, perUser: { capacity: limits.perUser, windowMs: limits.windowMs } })
    : undefined
  const deps = {
    detector,
    cache: new TieredCacheStore(new MemoryCacheStore(tier)),
    limiter: options.limiter ?? new MemoryRateLimitStore(rateLimiter),
    limits,
    ...(endpoint && { endpoint }),
  } as ReflexDeps
  const route = checkRoute(deps)
  /** Calls the route with `body` (serialised unless given as a string) as the client at 203.0.113.9. */
  const call = async (body: unknown, requestId = 'req-1'): Promise<Reply> => {
    const bytes = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body))
    const ctx = { ip: '203.0.113.9', requestId, body: bytes } as unknown as Ctx<Buffer>
    return route(ctx)
  }
  return { detector, tier, rateLimiter, call }
}

/** The reply's body as an object, whether the route sent bytes or an object. */
export function bodyOf(reply: Reply): Record<string, unknown> {
  const raw = reply.raw ?? JSON.stringify(reply.body)
  return JSON.parse(String(raw)) as Record<string, unknown>
}

/** The reply's headers by lower-case name, from its head of bytes or its headers. */
export function headersOf(reply: Reply): Record<string, string> {
  if (reply.head !== undefined) {
    const [requestId, ...lines] = String(reply.head).split('\r\n')
    return Object.fromEntries([['x-request-id', requestId!], ...lines.map((l) => l.split(': ') as [string, string])])
  }
  return Object.fromEntries(Object.entries(reply.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]))
}
