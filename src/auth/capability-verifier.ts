/**
 * Checks a capability token (docs/arms-and-tokens.md) before an arm does anything: signed by an
 * orchestrator key (EdDSA only), not expired, for this arm, this task and step, and this tool.
 * The claims name the task's tenant (`tenant`), which an arm that reads stored knowledge or memory
 * keeps to; a token from before tenants has none and is the default tenant's.
 *
 * ```ts
 * const verifier = remoteVerifier(config.orchestratorUrl)   // an arm running as its own service
 * const claims = await verifier.verify(bearerToken(ctx.headers('authorization')),
 *   { arm: 'executor', tool: 'shell', taskId: body.task_id, stepId: body.step_id })
 * claims.tokenId // the jti, for the result's provenance
 * ```
 *
 * `verify` is two halves, for an arm's HTTP route to answer the caller before it reads the body:
 * `authenticate(token, arm)` (signature, issuer, expiry, audience: everything the header alone
 * decides) and `grants(verified, expect)` (the request's task, step and tool).
 *
 * A refusal is a `CapabilityError` whose `reason` says why; `forbidden` tells a valid token that
 * grants something else (an arm's HTTP route answers 403) from no valid token at all (401):
 *
 * | reason | forbidden | meaning |
 * |---|---|---|
 * | TOKEN_MISSING | no | no `Authorization: Bearer` token |
 * | TOKEN_INVALID | no | malformed, not EdDSA, bad signature, unknown key, wrong issuer, bad `tenant` |
 * | TOKEN_EXPIRED | no | past `exp` (5 s clock tolerance) |
 * | TOKEN_WRONG_AUDIENCE | yes | `aud` is another arm |
 * | TOKEN_WRONG_SUBJECT | yes | `sub`/`step` are another task or step than the request's |
 * | TOKEN_OUT_OF_SCOPE | yes | the request's tool is not in `scope` |
 *
 * In code, switch on `err.reason`. When the orchestrator's key set cannot be fetched the verifier
 * throws `KeySetUnavailableError` instead: the arm cannot judge the token (its route answers 503),
 * and the caller should try again.
 */

import type { JSONWebKeySet, JWTPayload, JWTVerifyGetKey } from 'jose'
import { createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify } from 'jose'
import type { CapabilityClaims } from '../arms/contract.js'
import type { TokenRefusal } from '../step-errors.js'
import { DEFAULT_TENANT } from './principal.js'

/** The `iss` of every capability token. */
export const CAPABILITY_ISSUER = 'ganglion-orchestrator'

/** Seconds of clock skew tolerated between orchestrator and arm machines. */
export const CLOCK_TOLERANCE_SECONDS = 5

export interface CapabilityExpectation {
  arm: string
  tool: string
  taskId: string
  stepId: string
}

/** A token signed by the orchestrator, unexpired and for this arm: who is calling, before the body is read. */
export interface VerifiedCapability {
  arm: string
  taskId: string
  stepId: unknown
  tenant: string
  scope: readonly string[]
  tokenId: string
  expiresAt: number
}

export interface CapabilityVerifier {
  /** The first half of `verify`: signature, issuer, expiry and audience; nothing of the request. */
  authenticate(token: string | undefined, arm: string): Promise<VerifiedCapability>
  /** `authenticate`, then `grants`. */
  verify(token: string | undefined, expect: CapabilityExpectation): Promise<CapabilityClaims>
}

const FORBIDDEN: ReadonlySet<TokenRefusal> = new Set(['TOKEN_WRONG_AUDIENCE', 'TOKEN_WRONG_SUBJECT', 'TOKEN_OUT_OF_SCOPE'])

export class CapabilityError extends Error {
  /** The token is valid but does not grant this call; false: there is no valid token. */
  readonly forbidden: boolean

  constructor(
    readonly reason: TokenRefusal,
    message: string,
  ) {
    super(message)
    this.name = 'CapabilityError'
    this.forbidden = FORBIDDEN.has(reason)
  }
}

/** The orchestrator's key set could not be fetched, so the token could not be judged. */
export class KeySetUnavailableError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'KeySetUnavailableError'
  }
}

/** The token of an `Authorization: Bearer <token>` header; undefined for anything else. */
export function bearerToken(header: string | undefined): string | undefined {
  const m = header?.match(/^Bearer[ \t]+(\S+)[ \t]*$/i)
  return m?.[1]
}

/** Verifies against a fixed key set (the issuer's own keys, in-process). */
export function localVerifier(jwks: JSONWebKeySet): CapabilityVerifier {
  const keys = createLocalJWKSet(jwks)
  return verifierOver(keys, false)
}

export interface RemoteVerifierOptions {
  /** Least time between two fetches of the key set; an unknown `kid` refetches after it. Default 1 s. */
  cooldownMs?: number
  /** Refetch the key set at least this often. Default 10 min. */
  cacheMaxAgeMs?: number
  /** Default 2 s. */
  timeoutMs?: number
}

/**
 * Verifies against `GET {orchestratorUrl}/.well-known/jwks.json`. The short cooldown is what lets
 * a token from a freshly started orchestrator (a key not seen before) pass within a second.
 */
export function remoteVerifier(orchestratorUrl: string, opts: RemoteVerifierOptions = {}): CapabilityVerifier {
  const keys = createRemoteJWKSet(new URL('/.well-known/jwks.json', orchestratorUrl), {
    cooldownDuration: opts.cooldownMs ?? 1000,
    cacheMaxAge: opts.cacheMaxAgeMs ?? 600_000,
    timeoutDuration: opts.timeoutMs ?? 2000,
  })
  return verifierOver(keys, true)
}

function verifierOver(keys: JWTVerifyGetKey, remote: boolean): CapabilityVerifier {
  const authenticate = (token: string | undefined, arm: string) => authenticateCapability(token, arm, keys, remote)
  return { authenticate, verify: async (token, expect) => grants(await authenticate(token, expect.arm), expect) }
}

/** `remote`: the keys come over HTTP, so a failure to get them is KeySetUnavailableError rather than a refusal. */
async function authenticateCapability(
  token: string | undefined,
  arm: string,
  keys: JWTVerifyGetKey,
  remote: boolean,
): Promise<VerifiedCapability> {
  if (token === undefined || token === '')
    throw new CapabilityError('TOKEN_MISSING', 'A capability token is required: Authorization: Bearer <token>')
  let payload: JWTPayload
  try {
    ;({ payload } = await jwtVerify(token, keys, {
      algorithms: ['EdDSA'],
      issuer: CAPABILITY_ISSUER,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['aud', 'sub', 'jti', 'exp', 'iat'],
    }))
  } catch (err) {
    throw refusalOf(err, remote)
  }
  const aud = typeof payload.aud === 'string' ? [payload.aud] : (payload.aud ?? [])
  if (!aud.includes(arm)) throw new CapabilityError('TOKEN_WRONG_AUDIENCE', `The capability token is not for arm ${arm}`)
  const scope = payload.scope
  if (!Array.isArray(scope) || !scope.every((s): s is string => typeof s === 'string'))
    throw new CapabilityError('TOKEN_INVALID', 'The capability token has no valid scope')
  const tenant = payload.tenant
  if (tenant !== undefined && (typeof tenant !== 'string' || tenant === ''))
    throw new CapabilityError('TOKEN_INVALID', 'The capability token has no valid tenant')
  return {
    arm,
    taskId: String(payload.sub),
    stepId: payload.step,
    // A token signed before tenants existed has none: every task of that time is in the default tenant.
    tenant: tenant ?? DEFAULT_TENANT,
    scope,
    tokenId: String(payload.jti),
    expiresAt: payload.exp!,
  }
}

/** The claims `token` grants for this request's task, step and tool, or the 403 refusal. */
export function grants(token: VerifiedCapability, expect: CapabilityExpectation): CapabilityClaims {
  if (token.arm !== expect.arm) throw new CapabilityError('TOKEN_WRONG_AUDIENCE', `The capability token is not for arm ${expect.arm}`)
  if (token.taskId !== expect.taskId || token.stepId !== expect.stepId)
    throw new CapabilityError('TOKEN_WRONG_SUBJECT', 'The capability token is for another task or step than this request')
  if (!token.scope.includes(expect.tool))
    throw new CapabilityError('TOKEN_OUT_OF_SCOPE', `The capability token does not allow tool ${expect.tool}`)
  const { tenant, scope, tokenId, expiresAt } = token
  return { arm: expect.arm, taskId: expect.taskId, tenant, stepId: expect.stepId, scope, tokenId, expiresAt }
}

/** Maps jose's failures; a key set that could not be fetched is the arm's problem, not the token's. */
function refusalOf(err: unknown, remote: boolean): CapabilityError | KeySetUnavailableError {
  if (err instanceof errors.JWTExpired) return new CapabilityError('TOKEN_EXPIRED', 'The capability token has expired')
  // fetch failing is a TypeError; a non-200 or unparsable key set is jose's generic error
  const unfetched =
    err instanceof errors.JWKSTimeout ||
    err instanceof errors.JWKSInvalid ||
    !(err instanceof errors.JOSEError) ||
    err.code === 'ERR_JOSE_GENERIC'
  if (remote && unfetched) return new KeySetUnavailableError('The orchestrator key set could not be fetched to check the capability token')
  return new CapabilityError('TOKEN_INVALID', 'The capability token is not valid')
}
