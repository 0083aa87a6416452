/**
 * Which dependency an error says is down, if any: the one place a request's failure is told apart
 * as an outage (503 SERVICE_UNAVAILABLE, retry later) rather than a fault of the service (500).
 *
 * ```ts
 * dependencyOutage(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })) // 'database'
 * dependencyOutage(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })) // 'database'
 * dependencyOutage(new RedisUnavailableError('redis unavailable (end)')) // 'redis'
 * dependencyOutage(new TypeError("Cannot read properties of undefined")) // undefined: a bug, a 500
 * ```
 *
 * Connection-class failures only: the server refused, reset, dropped or timed out the connection,
 * is shutting down or starting up, or has no connection left. An error the server answered (a
 * constraint violation, a syntax error) is not an outage. The error and its causes (`cause`,
 * `AggregateError.errors`) are read, a few levels deep. A bare socket error is the database's: it
 * is the one dependency a request reaches over its own connections (Redis fails through
 * `RedisUnavailableError`, arms and models through step errors that never reach the HTTP layer).
 */

/** Socket errors that mean the peer could not be reached or went away. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
])

/** PostgreSQL's own: shutting down or starting up, or out of connections (SQLSTATE class 08 is all of them). */
const POSTGRES_CODES = new Set(['57P01', '57P02', '57P03', '53300'])

/** What node-postgres and PGlite say when the connection, not the query, failed. */
const DATABASE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
  'PGlite is closed',
]

/** How deep the causes are followed. */
const MAX_DEPTH = 4

export type Dependency = 'database' | 'redis'

export function dependencyOutage(err: unknown, depth = 0): Dependency | undefined {
  if (depth > MAX_DEPTH || err === null || typeof err !== 'object') return undefined
  const e = err as { name?: unknown; code?: unknown; message?: unknown; cause?: unknown; errors?: unknown }
  if (e.name === 'RedisUnavailableError') return 'redis'
  const code = typeof e.code === 'string' ? e.code : ''
  if (SOCKET_CODES.has(code) || POSTGRES_CODES.has(code) || (code.length === 5 && code.startsWith('08'))) return 'database'
  const message = typeof e.message === 'string' ? e.message : ''
  if (DATABASE_MESSAGES.some((m) => message.startsWith(m))) return 'database'
  const inner = [e.cause, ...(Array.isArray(e.errors) ? e.errors.slice(0, 8) : [])]
  for (const cause of inner) {
    const found = dependencyOutage(cause, depth + 1)
    if (found !== undefined) return found
  }
  return undefined
}
