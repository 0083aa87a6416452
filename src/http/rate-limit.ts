/**
 * Admission by rate limit: per user when the request names one, else per client IP.
 * Returns the `RateLimit-*` headers for the response, or throws a 429 carrying them plus
 * `Retry-After`.
 */

import type { Decision, RateLimitStore } from '../stores/rate-limit-store.js'
import { HttpError } from './errors.js'

export interface RateLimits {
  /** Requests per window per client IP. */
  perIp: number
  /** Requests per window per user id. */
  perUser: number
  /** The window both limits refill over, in milliseconds (60 000: "per minute"). */
  windowMs: number
}

/**
 * `clientIp` is asked only when there is no user id: reading the peer address from uWS costs
 * microseconds per request, a measurable share of the hot route (bench/RESULTS.md).
 */
export async function admit(
  store: RateLimitStore,
  limits: RateLimits,
  clientIp: () => string,
  userId?: string,
): Promise<Record<string, string>> {
  const sync = admitSync(store, limits, clientIp, userId)
  if (sync !== undefined) return sync
  const byUser = userId !== undefined
  const key = byUser ? `user:${userId}` : `ip:${clientIp()}`
  const d = await store.take(key, { capacity: byUser ? limits.perUser : limits.perIp, windowMs: limits.windowMs })
  return decide(d, limits, byUser)
}

/**
 * `admit` without a promise when the store answers in-process (`takeSync`); undefined when it
 * does not (Redis), and the caller falls back to `admit`.
 */
export function admitSync(
  store: RateLimitStore,
  limits: RateLimits,
  clientIp: () => string,
  userId?: string,
): Record<string, string> | undefined {
  if (store.takeSync === undefined) return undefined
  const byUser = userId !== undefined
  const key = byUser ? `user:${userId}` : `ip:${clientIp()}`
  const d = store.takeSync(key, { capacity: byUser ? limits.perUser : limits.perIp, windowMs: limits.windowMs })
  return decide(d, limits, byUser)
}

/** The `RateLimit-*` headers of decision `d`, or the 429 carrying them. */
export function decide(d: Decision, limits: RateLimits, byUser: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(d.limit),
    'RateLimit-Remaining': String(d.remaining),
    'RateLimit-Reset': String(Math.ceil(d.resetMs / 1000)),
  }
  if (d.allowed) return headers
  const window = `${limits.windowMs / 1000} s`
  throw new HttpError(
    'RATE_LIMIT',
    `Rate limit of ${d.limit} requests per ${window} exceeded for this ${byUser ? 'user' : 'client'}`,
    { field: byUser ? 'user_id' : 'client_ip', constraint: `at most ${d.limit} requests per ${window}` },
    { ...headers, 'Retry-After': String(Math.max(1, Math.ceil(d.retryAfterMs / 1000))) },
  )
}
