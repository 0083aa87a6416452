/**
 * Who is calling, from the `Authorization: Bearer …` header: the HTTP layer asks this before any
 * route that needs a principal reads its body (docs/security.md).
 *
 * ```ts
 * const authenticate = createAuthenticator({ mode: 'required', adminToken, verifiers: [apiKeys, jwts] })
 * const principal = await authenticate(req.headers.authorization)   // or a 401 HttpError thrown
 * ```
 *
 * With `mode: 'off'` every request is `ANONYMOUS` (one admin in the default tenant): the loopback
 * quick start. Otherwise the bearer token is, in order, the bootstrap `ADMIN_TOKEN`, or a token
 * the first verifier that recognises its form checks (an API key, an identity provider's JWT).
 * A verified token is remembered for `rememberMs` (one second by default), so a busy route pays
 * for the check about once a second per credential, and a revoked key stops working in every
 * process within that time; a token that expires sooner (a JWT's `exp`) is remembered only until
 * then. A verifier that cannot judge a token because something it needs is down (an identity
 * provider's key set) throws `AuthenticationUnavailableError`: the HTTP layer answers 503.
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { LRUCache } from 'lru-cache'
import { bearerToken } from './capability-verifier.js'
import { ANONYMOUS, DEFAULT_TENANT, type Principal } from './principal.js'

/** The principal of a request's `Authorization` header: sync when it can answer from memory. */
export type Authenticate = (authorization: string | undefined) => Principal | Promise<Principal>

/** No principal: no credential, or one this service does not take. The HTTP layer answers 401. */
export class AuthenticationError extends Error {
  override name = 'AuthenticationError'

  /** What the credential must be, for the error object's `details.constraint`. */
  constructor(
    message: string,
    readonly constraint: string,
  ) {
    super(message)
  }
}

/**
 * The credential could not be judged, valid or not, because a dependency of the check is down
 * (an identity provider's key set could not be fetched). The HTTP layer answers 503
 * SERVICE_UNAVAILABLE naming `dependency`; the client may try again.
 */
export class AuthenticationUnavailableError extends Error {
  override name = 'AuthenticationUnavailableError'

  constructor(
    message: string,
    /** What is down, for the error object's `details.field` (`identity_provider`). */
    readonly dependency: string,
    options?: ErrorOptions,
  ) {
    super(message, options)
  }
}

/** A principal whose credential is valid only until `expiresAt` (ms since the epoch: a JWT's `exp`). */
export interface VerifiedUntil {
  readonly principal: Principal
  readonly expiresAt: number
}

/** Checks one kind of bearer token. */
export interface CredentialVerifier {
  /** Whether `token` has this verifier's form (`gk_…` for an API key, three dotted parts for a JWT). */
  accepts(token: string): boolean
  /**
   * The principal `token` stands for (with its expiry when it has one: never remembered past it),
   * or undefined when it is not valid (unknown, revoked, expired, forged). Throws
   * `AuthenticationUnavailableError` when it cannot tell.
   */
  verify(token: string): Promise<Principal | VerifiedUntil | undefined>
}

export interface AuthenticatorOptions {
  mode: 'required' | 'off'
  /** The bootstrap admin credential (ADMIN_TOKEN). */
  adminToken?: string
  verifiers?: readonly CredentialVerifier[]
  /** How long a verified token is taken on trust (default 1,000 ms). */
  rememberMs?: number
  /** The clock, for tests. */
  now?: () => number
}

/** The principal of the bootstrap `ADMIN_TOKEN`. */
export const ADMIN: Principal = Object.freeze({
  id: 'admin',
  tenant: DEFAULT_TENANT,
  roles: Object.freeze(['admin'] as const),
  via: 'admin-token',
})

/** Verified tokens kept at most; the least recently used go first past it. */
const REMEMBERED = 10_000

function unauthorized(message: string, constraint: string): AuthenticationError {
  return new AuthenticationError(message, constraint)
}

export function createAuthenticator(options: AuthenticatorOptions): Authenticate {
  if (options.mode === 'off') return () => ANONYMOUS
  const verifiers = options.verifiers ?? []
  const rememberMs = options.rememberMs ?? 1_000
  const now = options.now ?? Date.now
  const admin = options.adminToken === undefined ? undefined : digest(options.adminToken)
  // Keyed by a digest of the token, so the map holds no credential.
  const remembered = new LRUCache<string, { principal: Principal; until: number }>({ max: REMEMBERED })

  return (authorization) => {
    const token = bearerToken(authorization)
    if (token === undefined)
      throw unauthorized('Authentication required: send Authorization: Bearer <API key or token>', 'must be a bearer token')
    const key = digest(token)
    if (admin !== undefined && timingSafeEqual(key, admin)) return ADMIN
    const id = key.toString('base64')
    const known = remembered.get(id)
    if (known !== undefined && known.until > now()) return known.principal
    const verifier = verifiers.find((v) => v.accepts(token))
    if (verifier === undefined)
      throw unauthorized('The bearer token is not an API key or token this service knows', 'must be a valid credential')
    return verifier.verify(token).then((verified) => {
      if (verified === undefined) throw unauthorized('The credential is unknown, revoked or expired', 'must be a valid credential')
      const { principal, expiresAt } = 'principal' in verified ? verified : { principal: verified, expiresAt: Infinity }
      // Never past the credential's own expiry: an expired token is not taken from memory.
      const until = Math.min(now() + rememberMs, expiresAt)
      if (until > now()) remembered.set(id, { principal, until })
      return principal
    })
  }
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest()
}
