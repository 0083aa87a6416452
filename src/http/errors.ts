/**
 * The error catalogue shared by every component: one stable code per failure, one status per code,
 * and the error object every reply carries (docs/http.md).
 *
 * ```ts
 * throw HttpError.validation('text', 'must be a string')
 * // → 400 {"error":{"code":"VALIDATION_ERROR","message":"Invalid request: text must be a string",
 * //        "details":{"field":"text","constraint":"must be a string"},"request_id":"…"}}
 * ```
 *
 * `details` is always an object. It carries `field` and `constraint` whenever the failure can be
 * pinned to one input (always for VALIDATION_ERROR, and for the 404/405/413/415 the HTTP layer
 * produces itself); otherwise it is `{}`. Callers switch on `code`, never on `message`.
 */

import { dependencyOutage } from './dependency-outage.js'

export type ErrorCode =
  | 'VALIDATION_ERROR'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'TIMEOUT'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RATE_LIMIT'
  | 'INTERNAL_ERROR'
  | 'SERVICE_UNAVAILABLE'

/** The catalogue: status and default message per code. */
export const ERROR_CATALOGUE: Readonly<Record<ErrorCode, { status: number; message: string }>> = Object.freeze({
  VALIDATION_ERROR: { status: 400, message: 'Invalid request' },
  UNAUTHORIZED: { status: 401, message: 'Authentication required' },
  FORBIDDEN: { status: 403, message: 'Not allowed' },
  NOT_FOUND: { status: 404, message: 'Resource not found' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed' },
  TIMEOUT: { status: 408, message: 'Request timed out' },
  CONFLICT: { status: 409, message: 'Conflict with the current state of the resource' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'Request body too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Unsupported media type' },
  RATE_LIMIT: { status: 429, message: 'Too many requests' },
  INTERNAL_ERROR: { status: 500, message: 'Internal server error' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'Service unavailable' },
})

export interface ErrorDetails {
  field?: string
  constraint?: string
}

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details: ErrorDetails; request_id: string }
}

export class HttpError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly details: ErrorDetails
  /** Extra response headers, e.g. `Retry-After` on a 429 or `Allow` on a 405. */
  readonly headers?: Record<string, string>

  constructor(code: ErrorCode, message?: string, details: ErrorDetails = {}, headers?: Record<string, string>) {
    const entry = ERROR_CATALOGUE[code]
    super(message ?? entry.message)
    this.name = 'HttpError'
    this.code = code
    this.status = entry.status
    this.details = details
    if (headers !== undefined) this.headers = headers
  }

  static validation(field: string, constraint: string, message?: string): HttpError {
    return new HttpError('VALIDATION_ERROR', message ?? `Invalid request: ${field} ${constraint}`, { field, constraint })
  }

  static unauthorized(message?: string, headers?: Record<string, string>, details: ErrorDetails = {}): HttpError {
    return new HttpError('UNAUTHORIZED', message, details, headers)
  }

  static forbidden(message?: string, field?: string, constraint?: string): HttpError {
    return new HttpError('FORBIDDEN', message, field === undefined ? {} : { field, ...(constraint !== undefined && { constraint }) })
  }

  /** `what` names the input that pointed nowhere: `task_id`, `key`, `path`. */
  static notFound(what: string, message?: string): HttpError {
    return new HttpError('NOT_FOUND', message ?? `Not found: ${what}`, { field: what, constraint: 'must refer to an existing resource' })
  }

  static methodNotAllowed(method: string, allow: readonly string[]): HttpError {
    return new HttpError(
      'METHOD_NOT_ALLOWED',
      `Method ${method} is not allowed here; allowed: ${allow.join(', ')}`,
      { field: 'method', constraint: `must be one of ${allow.join(', ')}` },
      { allow: allow.join(', ') },
    )
  }

  static timeout(message?: string): HttpError {
    return new HttpError('TIMEOUT', message)
  }

  static conflict(message?: string, field?: string, constraint?: string): HttpError {
    const details: ErrorDetails = {}
    if (field !== undefined) details.field = field
    if (constraint !== undefined) details.constraint = constraint
    return new HttpError('CONFLICT', message, details)
  }

  static payloadTooLarge(limitBytes: number): HttpError {
    return new HttpError('PAYLOAD_TOO_LARGE', `Request body exceeds the limit of ${limitBytes} bytes`, {
      field: 'body',
      constraint: `must NOT be larger than ${limitBytes} bytes`,
    })
  }

  static unsupportedMediaType(got: string | undefined): HttpError {
    return new HttpError(
      'UNSUPPORTED_MEDIA_TYPE',
      got ? `Content-Type ${got} is not supported; send application/json` : 'Content-Type is missing; send application/json',
      { field: 'content-type', constraint: 'must be application/json' },
    )
  }

  /**
   * 429. `retryAfterSeconds` becomes `Retry-After`; pass the `RateLimit-Limit/Remaining/Reset`
   * headers of the limiter in `headers`.
   */
  static rateLimit(retryAfterSeconds: number, headers: Record<string, string> = {}, message?: string): HttpError {
    return new HttpError('RATE_LIMIT', message, {}, { ...headers, 'retry-after': String(Math.max(0, Math.ceil(retryAfterSeconds))) })
  }

  /** A 500 whose message is safe to show. Anything that is not an HttpError becomes this too. */
  static internal(): HttpError {
    return new HttpError('INTERNAL_ERROR')
  }

  /**
   * 503; `dependency` names what is down (`database`, `redis`, an arm). `Retry-After` says when
   * to try again: an outage is expected to pass, unlike a 500.
   */
  static unavailable(dependency?: string, message?: string): HttpError {
    return new HttpError(
      'SERVICE_UNAVAILABLE',
      message ?? (dependency ? `Dependency unavailable: ${dependency}` : undefined),
      dependency ? { field: dependency, constraint: 'must be reachable' } : {},
      { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
    )
  }
}

/** The `Retry-After` of every 503: long enough for a restart or a fail-over to begin, short enough to notice it end. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5

/**
 * Whatever was thrown, as an HttpError. A dependency outage (dependency-outage.ts) becomes a 503
 * naming the dependency; anything else a generic 500: its message may leak internals.
 */
export function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err
  const dependency = dependencyOutage(err)
  return dependency === undefined
    ? HttpError.internal()
    : HttpError.unavailable(dependency, `The ${dependency} is unavailable; try again later`)
}

/** The error object of the spec for `err`; non-HttpErrors become a generic 500 body. */
export function errorBody(err: unknown, requestId: string): ErrorBody {
  const e = toHttpError(err)
  return { error: { code: e.code, message: e.message, details: e.details, request_id: requestId } }
}
