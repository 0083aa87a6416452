/**
 * An identity provider's tokens (OIDC JWTs) as principals (docs/security.md, "Identity-provider
 * tokens"): the authenticator hands this verifier every bearer token of three dotted parts.
 *
 * ```ts
 * const jwts = createJwtVerifier({
 *   jwksUrl: 'https://idp.example.com/.well-known/jwks.json',   // or publicKey: PEM SPKI or a JWK
 *   issuer: 'https://idp.example.com/',
 *   audience: 'ganglion',
 * })
 * createAuthenticator({ mode: 'required', verifiers: [jwts] })
 * // a token {sub: 'alice', tenant: 'acme', roles: ['member']} → {id: 'jwt:alice', tenant: 'acme', roles: ['member'], via: 'jwt'}
 * ```
 *
 * A token is valid when it is signed with one of the pinned asymmetric algorithms (never `none`,
 * never HMAC, whatever is listed) by a key of the key set, names the issuer and the audience, is
 * within `nbf`..`exp` (5 s of clock tolerance), and has a `sub` and a tenant claim. Roles the
 * service does not know are ignored. The key set is fetched on first use and cached; a token
 * naming an unknown `kid` refetches it (at most once per cooldown), so a rotated key is picked
 * up. When the key set cannot be fetched, `verify` throws `AuthenticationUnavailableError`: the
 * token could not be judged, and the HTTP layer answers 503 rather than 401.
 */
import { createPublicKey, type KeyObject, type JsonWebKey as NodeJwk } from 'node:crypto'
import { createLocalJWKSet, createRemoteJWKSet, errors, type JWK, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose'
import { AuthenticationUnavailableError, type CredentialVerifier, type VerifiedUntil } from './authenticator.js'
import { type Principal, ROLES, type Role } from './principal.js'

/** The signature algorithms a token may use: asymmetric only. `none` and HMAC are not among them. */
export const JWT_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'] as const
export type JwtAlgorithm = (typeof JWT_ALGORITHMS)[number]

/** AUTH_ALGORITHMS unset. */
export const DEFAULT_JWT_ALGORITHMS: readonly JwtAlgorithm[] = Object.freeze(['RS256', 'ES256', 'EdDSA'])

/** Seconds of clock skew tolerated between the identity provider and this service for `exp` and `nbf`. */
export const JWT_CLOCK_TOLERANCE_SECONDS = 5

/** The `details.field` of the 503 when the key set cannot be fetched. */
export const IDENTITY_PROVIDER = 'identity_provider'

/** The longest `sub` and tenant taken: longer ones make the token invalid. */
const MAX_CLAIM_LENGTH = 256

/** What the configuration says (the AUTH_* variables); exactly one of `jwksUrl` and `publicKey`. */
export interface JwtSettings {
  /** AUTH_JWKS_URL: the identity provider's key set. */
  jwksUrl?: string | undefined
  /** AUTH_PUBLIC_KEY: one public key, PEM SPKI or a JWK. */
  publicKey?: string | undefined
  /** AUTH_ISSUER: the `iss` every token must name. */
  issuer: string
  /** AUTH_AUDIENCE: an `aud` every token must carry. */
  audience: string
  /** AUTH_ALGORITHMS; default RS256, ES256, EdDSA. Anything not in `JWT_ALGORITHMS` is dropped. */
  algorithms?: readonly string[]
  /** AUTH_TENANT_CLAIM; default `tenant`. */
  tenantClaim?: string
  /** AUTH_ROLES_CLAIM; default `roles`. */
  rolesClaim?: string
}

/** What the configuration does not say: key-set timing, the clock, where to say the key set is down. */
export interface JwtVerifierOptions {
  /** Least time between two fetches of the key set for an unknown `kid`. Default 10 s. */
  cooldownMs?: number
  /** Refetch the key set at least this often. Default 10 min. */
  cacheMaxAgeMs?: number
  /** One fetch of the key set. Default 5 s. */
  timeoutMs?: number
  /** The clock `exp` and `nbf` are checked against, for tests. Default the real one. */
  now?: () => number
  /** Told when the key set cannot be fetched (at most every 10 s). */
  log?: { warn(obj: object, msg?: string): void }
}

const FORM = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/
const WARN_EVERY_MS = 10_000

export function createJwtVerifier(settings: JwtSettings, options: JwtVerifierOptions = {}): CredentialVerifier {
  const algorithms = (settings.algorithms ?? DEFAULT_JWT_ALGORITHMS).filter(isJwtAlgorithm)
  if (algorithms.length === 0) throw new Error(`JWT verifier: no algorithm left; use some of ${JWT_ALGORITHMS.join(', ')}`)
  if ((settings.jwksUrl === undefined) === (settings.publicKey === undefined))
    throw new Error('JWT verifier: give exactly one of jwksUrl and publicKey')
  const tenantClaim = settings.tenantClaim ?? 'tenant'
  const rolesClaim = settings.rolesClaim ?? 'roles'
  const { now, log } = options
  let warnedAt = Number.NEGATIVE_INFINITY

  const keys: JWTVerifyGetKey =
    settings.jwksUrl !== undefined ? remoteKeys(settings.jwksUrl, options) : staticKey(publicJwk(settings.publicKey!))

  return {
    accepts: (token) => FORM.test(token) && !token.startsWith('gk_'),

    async verify(token): Promise<VerifiedUntil | undefined> {
      let payload: JWTPayload
      try {
        ;({ payload } = await jwtVerify(token, keys, {
          algorithms,
          issuer: settings.issuer,
          audience: settings.audience,
          clockTolerance: JWT_CLOCK_TOLERANCE_SECONDS,
          requiredClaims: ['sub', 'exp'],
          ...(now !== undefined && { currentDate: new Date(now()) }),
        }))
      } catch (err) {
        if (!(err instanceof AuthenticationUnavailableError)) return undefined
        const at = Date.now()
        if (log !== undefined && at - warnedAt >= WARN_EVERY_MS) {
          warnedAt = at
          log.warn({ err: err.cause, jwks_url: settings.jwksUrl }, 'identity provider key set could not be fetched: tokens answer 503')
        }
        throw err
      }
      const principal = principalOf(payload, tenantClaim, rolesClaim)
      return principal === undefined ? undefined : { principal, expiresAt: payload.exp! * 1000 }
    },
  }
}

function isJwtAlgorithm(alg: string): alg is JwtAlgorithm {
  return (JWT_ALGORITHMS as readonly string[]).includes(alg)
}

/**
 * The key set at `url`, fetched by jose (cached, refetched on an unknown `kid` after the
 * cooldown). A failure to get it is `AuthenticationUnavailableError`; a token whose key is not
 * in it stays jose's refusal.
 */
function remoteKeys(url: string, options: JwtVerifierOptions): JWTVerifyGetKey {
  const remote = createRemoteJWKSet(new URL(url), {
    cooldownDuration: options.cooldownMs ?? 10_000,
    cacheMaxAge: options.cacheMaxAgeMs ?? 600_000,
    timeoutDuration: options.timeoutMs ?? 5_000,
  })
  return async (header, token) => {
    try {
      return await remote(header, token)
    } catch (err) {
      // Fetching fails with a TypeError (no connection), a timeout, or jose's generic error (not
      // 200, not JSON); a key set that is not one is JWKSInvalid. An unknown kid, an algorithm no
      // key fits: the token's fault, a refusal.
      const unfetched =
        !(err instanceof errors.JOSEError) ||
        err instanceof errors.JWKSTimeout ||
        err instanceof errors.JWKSInvalid ||
        err.code === 'ERR_JOSE_GENERIC'
      if (!unfetched) throw err
      throw new AuthenticationUnavailableError(
        "The identity provider's key set could not be fetched to check the token; try again",
        IDENTITY_PROVIDER,
        { cause: err },
      )
    }
  }
}

/** The one configured key, whatever `kid` a token names: jose still matches its type to the token's `alg`. */
function staticKey(jwk: JWK): JWTVerifyGetKey {
  const local = createLocalJWKSet({ keys: [jwk] })
  return (header) => local({ alg: header.alg })
}

/**
 * The public key of AUTH_PUBLIC_KEY as a JWK: PEM SPKI (`-----BEGIN PUBLIC KEY-----`, literal `\n`
 * taken as line breaks) or a JWK's JSON. Throws, saying why, for anything else: a private or
 * secret key, a key type no algorithm signs with, an RSA key under 2,048 bits.
 */
export function publicJwk(text: string): JWK {
  const trimmed = text.trim().replace(/\\n/g, '\n')
  let key: KeyObject
  let given: Record<string, unknown> = {}
  if (trimmed.startsWith('{')) {
    try {
      given = JSON.parse(trimmed) as Record<string, unknown>
    } catch {
      throw new Error('is not valid JSON')
    }
    if (typeof given !== 'object' || given === null || Array.isArray(given)) throw new Error('must be a JWK object')
    if (given.kty === 'oct' || given.d !== undefined) throw new Error('is a private or secret key; give the public key only')
    try {
      key = createPublicKey({ key: given as NodeJwk, format: 'jwk' })
    } catch (err) {
      throw new Error(`is not a usable JWK (${(err as Error).message})`)
    }
  } else {
    if (/PRIVATE KEY/.test(trimmed)) throw new Error('is a private key; give the public key only')
    if (!trimmed.startsWith('-----BEGIN PUBLIC KEY-----')) throw new Error('must be a PEM public key (-----BEGIN PUBLIC KEY-----) or a JWK')
    try {
      key = createPublicKey({ key: trimmed, format: 'pem' })
    } catch (err) {
      throw new Error(`is not a usable PEM public key (${(err as Error).message})`)
    }
  }
  if (!['rsa', 'ec', 'ed25519'].includes(key.asymmetricKeyType ?? ''))
    throw new Error(`is a ${key.asymmetricKeyType} key; it must be RSA, EC (P-256, P-384, P-521) or Ed25519`)
  const jwk = key.export({ format: 'jwk' }) as JWK
  if (jwk.kty === 'RSA' && Buffer.from(jwk.n!, 'base64url').length * 8 < 2048) throw new Error('is an RSA key under 2048 bits')
  if (typeof given.kid === 'string') jwk.kid = given.kid
  if (typeof given.alg === 'string') jwk.alg = given.alg
  return jwk
}

/** The algorithms among `algorithms` that `jwk` verifies (its own `alg` only, when it names one). */
export function algorithmsFor(jwk: JWK, algorithms: readonly string[]): JwtAlgorithm[] {
  const fits = (alg: JwtAlgorithm): boolean => {
    if (jwk.alg !== undefined && jwk.alg !== alg) return false
    if (jwk.kty === 'RSA') return /^(RS|PS)/.test(alg)
    if (jwk.kty === 'OKP') return jwk.crv === 'Ed25519' && (alg === 'EdDSA' || alg === 'Ed25519')
    if (jwk.kty === 'EC') return ({ 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512' } as Record<string, string>)[jwk.crv!] === alg
    return false
  }
  return algorithms.filter(isJwtAlgorithm).filter(fits)
}

/** A claim by its name as a key (`https://example.com/tenant` included), else as a dotted path (`realm_access.roles`). */
function claim(payload: JWTPayload, name: string): unknown {
  if (Object.hasOwn(payload, name)) return payload[name]
  let at: unknown = payload
  for (const part of name.split('.')) {
    if (at === null || typeof at !== 'object' || Array.isArray(at) || !Object.hasOwn(at, part)) return undefined
    at = (at as Record<string, unknown>)[part]
  }
  return at
}

function principalOf(payload: JWTPayload, tenantClaim: string, rolesClaim: string): Principal | undefined {
  const { sub } = payload
  const tenant = claim(payload, tenantClaim)
  if (!isName(sub) || !isName(tenant)) return undefined
  const value = claim(payload, rolesClaim)
  const named =
    typeof value === 'string' ? value.split(/\s+/) : Array.isArray(value) ? value.filter((r): r is string => typeof r === 'string') : []
  const roles: Role[] = ROLES.filter((role) => named.includes(role))
  return Object.freeze({ id: `jwt:${sub}`, tenant, roles: Object.freeze(roles), via: 'jwt' as const })
}

function isName(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_CLAIM_LENGTH
}
