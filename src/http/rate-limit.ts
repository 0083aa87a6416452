/**
 * Rate limits on every route that needs a principal, keyed by who is calling: the principal (an
 * API key, a token's subject, and for a service acting for a user it names, that user under it),
 * or the client's address while auth is off. Reads (GET) and writes (everything else) have budgets
 * of their own, so a dashboard polling tasks never starves the submissions.
 *
 * ```ts
 * const limit = routeLimiter(store, { perIp: 100, perIpReads: 600, perPrincipal: 1000, perPrincipalReads: 6000, windowMs: 60_000 })
 * createHttpApp({ …, limit })   // 429 with Retry-After past the budget; RateLimit-* on every reply
 * ```
 *
 * A budget of 0 switches that limit off.
 */
import type { Principal } from '../auth/principal.js'
import type { Decision, RateLimitStore } from '../stores/rate-limit-store.js'
import { HttpError } from './errors.js'

export interface RateLimits {
  /** Writes per window per client address, while auth is off (0: no limit). */
  perIp: number
  /** Reads per window per client address, while auth is off. */
  perIpReads: number
  /** Writes per window per principal (0: no limit). */
  perPrincipal: number
  /** Reads per window per principal. */
  perPrincipalReads: number
  /** The window every budget refills over, in milliseconds (60 000: "per minute"). */
  windowMs: number
}

export type Access = 'read' | 'write'

/** What the HTTP layer asks before a route runs: the decision, or undefined when no limit applies. */
export type RouteLimiter = (
  principal: Principal,
  ip: () => string,
  user: string | undefined,
  access: Access,
) => Decision | Promise<Decision> | undefined

/**
 * Who a request counts against: the principal, the user a service acts for under it, or the
 * client's address with auth off. The rate-limit buckets and the open-stream caps both key by it.
 */
export function callerOf(principal: Principal, ip: () => string, user: string | undefined): string {
  if (principal.via === 'none') return `ip:${ip()}`
  if (user !== undefined && principal.roles.includes('service')) return `${principal.id}:user:${user}`
  return principal.id
}

/** The bucket of a request: its caller's budget for reads or for writes. */
export function bucketOf(principal: Principal, ip: () => string, user: string | undefined, access: Access): string {
  return `${access === 'read' ? 'r' : 'w'}:${callerOf(principal, ip, user)}`
}

/** Requests per minute `principal` may make: its own limit where its key sets one, else the server's. */
export function capacityOf(principal: Principal, access: Access, limits: RateLimits): number {
  if (principal.via === 'none') return access === 'read' ? limits.perIpReads : limits.perIp
  const own = access === 'read' ? principal.limits?.reads : principal.limits?.writes
  return own ?? (access === 'read' ? limits.perPrincipalReads : limits.perPrincipal)
}

export function routeLimiter(store: RateLimitStore, limits: RateLimits): RouteLimiter {
  return (principal, ip, user, access) => {
    const capacity = capacityOf(principal, access, limits)
    if (capacity === 0) return undefined
    const key = bucketOf(principal, ip, user, access)
    const limit = { capacity, windowMs: limits.windowMs }
    // In-process buckets answer without a promise: the hot routes pay none.
    return store.takeSync !== undefined ? store.takeSync(key, limit) : store.take(key, limit)
  }
}

/** The `RateLimit-*` headers of an allowed decision. */
export function rateLimitHeaders(d: Decision): Record<string, string> {
  return {
    'ratelimit-limit': String(d.limit),
    'ratelimit-remaining': String(d.remaining),
    'ratelimit-reset': String(Math.ceil(d.resetMs / 1000)),
  }
}

/** The 429 of a refused decision, carrying its headers and `Retry-After`. */
export function tooManyRequests(d: Decision): HttpError {
  const retry = Math.max(1, Math.ceil(d.retryAfterMs / 1000))
  return new HttpError(
    'RATE_LIMIT',
    `Rate limit of ${d.limit} requests exceeded; retry in ${retry} s`,
    { field: 'authorization', constraint: `at most ${d.limit} requests in the window` },
    { ...rateLimitHeaders(d), 'retry-after': String(retry) },
  )
}
