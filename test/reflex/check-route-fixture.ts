/** The check route over real ports, with or without its native endpoint, called without a server. */
import { AnswerKeys, CacheTier, CheckEndpoint, Detector } from '@ganglion/reflex'
import type { Principal } from '../../src/auth/principal.js'
import type { Ctx, Reply } from '../../src/http/app.js'
import { checkRoute } from '../../src/reflex/check-route.js'
import type { ReflexDeps } from '../../src/reflex/deps.js'
import { MemoryCacheStore } from '../../src/stores/memory-cache-store.js'
import type { Decision } from '../../src/stores/rate-limit-store.js'
import { TieredCacheStore } from '../../src/stores/tiered-cache-store.js'

/** A member of tenant `acme`. */
export const MEMBER: Principal = { id: 'key:test', tenant: 'acme', roles: ['member'], via: 'api-key' }

/** A decision the HTTP layer took for the request, as it hands it to the route. */
export const DECISION: Decision = { allowed: true, limit: 3, remaining: 2, resetMs: 20_000, retryAfterMs: 0 }

export function checkRouteFixture(options: { native: boolean }) {
  const detector = new Detector()
  const tier = new CacheTier()
  const answerKeys = new AnswerKeys('a test secret of sixteen bytes or more')
  const endpoint = options.native ? new CheckEndpoint({ detector, cache: tier, keys: answerKeys }) : undefined
  const deps = {
    detector,
    cache: new TieredCacheStore(new MemoryCacheStore(tier)),
    answerKeys,
    ...(endpoint && { endpoint }),
  } as ReflexDeps
  const route = checkRoute(deps)
  /** Calls the route with `body` (serialised unless given as a string) for `principal`; `rateLimit` null: none applied. */
  const call = async (body: unknown, requestId = 'req-1', principal = MEMBER, rateLimit: Decision | null = DECISION): Promise<Reply> => {
    const bytes = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body))
    const ctx = { ip: '203.0.113.9', requestId, body: bytes, principal, rateLimit: rateLimit ?? undefined } as unknown as Ctx<Buffer>
    return route(ctx)
  }
  return { detector, tier, answerKeys, call }
}

/** The reply's body as an object, whether the route sent bytes or an object. */
export function bodyOf(reply: Reply): Record<string, unknown> {
  const raw = reply.raw ?? JSON.stringify(reply.body)
  return JSON.parse(String(raw)) as Record<string, unknown>
}

/** The header lines of a reply's head of bytes, by lower-case name. */
export function headOf(reply: Reply): Record<string, string> {
  const [requestId, ...lines] = String(reply.head).split('\r\n')
  return Object.fromEntries([['x-request-id', requestId!], ...lines.map((l) => l.split(': ') as [string, string])])
}
