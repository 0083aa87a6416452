/**
 * Signs one capability token per arm call (docs/arms-and-tokens.md) and publishes the public key
 * arms check it with.
 *
 * ```ts
 * const issuer = await CapabilityIssuer.open({ sql, privateKey: config.capabilityPrivateKey })
 * const { token, tokenId } = await issuer.sign({ arm: 'executor', taskId, tenant, stepId: 's2', scope: ['shell'], ttlSeconds: 300 })
 * await issuer.jwks()          // { keys: [every orchestrator's public key] } for /.well-known/jwks.json
 * issuer.localVerifier()       // for arms hosted in this process: no HTTP
 * await issuer.close()
 * ```
 *
 * Token: EdDSA (Ed25519) JWT, header `kid`; claims `iss` = ganglion-orchestrator, `aud` = arm,
 * `sub` = task id, `tenant` = the task's tenant, `step` = step id, `scope` = tools, `jti` = random
 * id, `iat`, `exp` = iat + ttl.
 *
 * Keys: `privateKey` (PKCS8 PEM or a private JWK, e.g. CAPABILITY_PRIVATE_KEY) when given, else a
 * key pair generated at start and held in memory only. The private key never reaches the database:
 * a database leak must not let anyone mint tokens. With a `sql`, each orchestrator upserts its
 * PUBLIC key into `capability_keys` and refreshes `last_seen_at` hourly; any of them deletes keys
 * unseen for a day, so a restarted orchestrator's old key lives on only as long as tokens it
 * signed could (tokens are minutes long; a day is a wide margin for a paused process). The `kid`
 * is the key's RFC 7638 thumbprint, so processes sharing one configured key publish one row.
 */
import { randomUUID } from 'node:crypto'
import type { CryptoKey, JWK } from 'jose'
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, importPKCS8, SignJWT } from 'jose'
import type { Sql } from '../stores/sql.js'
import { CAPABILITY_ISSUER, type CapabilityVerifier, localVerifier } from './capability-verifier.js'

export interface CapabilityGrant {
  arm: string
  taskId: string
  /** The task's tenant: the arm reads knowledge and memory of this tenant only. */
  tenant: string
  stepId: string
  scope: string[]
  /** Lifetime; the caller keeps it within the step timeout. 1 s to 1 day. */
  ttlSeconds: number
}

export interface CapabilityIssuerOptions {
  /** Where public keys are published; without it `jwks()` is this issuer's key alone. */
  sql?: Sql
  /** PKCS8 PEM or a private JWK (JSON) of an Ed25519 key; unset → a fresh key in memory. */
  privateKey?: string
  /** How often `last_seen_at` is refreshed. Default 1 hour. */
  refreshMs?: number
  /** Published keys unseen this long are deleted. Default 1 day. */
  staleAfterSeconds?: number
  /** The clock, in ms; tests move it. */
  now?: () => number
  /** Publishing from the timer failed (the database is down); the next refresh tries again. */
  onError?: (err: unknown) => void
}

const MAX_TTL_SECONDS = 86_400

export class CapabilityIssuer {
  private timer: NodeJS.Timeout | undefined
  private reading: Promise<{ keys: JWK[] }> | undefined

  private constructor(
    private readonly privateKey: CryptoKey,
    /** Public JWK with `kid`, `alg` and `use`. */
    readonly publicJwk: JWK & { kid: string },
    private readonly opts: CapabilityIssuerOptions,
  ) {}

  static async open(opts: CapabilityIssuerOptions = {}): Promise<CapabilityIssuer> {
    const { privateKey, publicJwk } = opts.privateKey === undefined ? await generated() : await imported(opts.privateKey)
    const kid = await calculateJwkThumbprint(publicJwk)
    const issuer = new CapabilityIssuer(privateKey, { ...publicJwk, kid, alg: 'EdDSA', use: 'sig' }, opts)
    if (opts.sql !== undefined) {
      await issuer.publish()
      issuer.timer = setInterval(() => {
        issuer.publish().catch((err: unknown) => opts.onError?.(err))
      }, opts.refreshMs ?? 3_600_000)
      issuer.timer.unref() // never what keeps a process alive
    }
    return issuer
  }

  get kid(): string {
    return this.publicJwk.kid
  }

  async sign(grant: CapabilityGrant): Promise<{ token: string; tokenId: string }> {
    if (!Number.isInteger(grant.ttlSeconds) || grant.ttlSeconds < 1 || grant.ttlSeconds > MAX_TTL_SECONDS)
      throw new RangeError(`ttlSeconds must be an integer from 1 to ${MAX_TTL_SECONDS}`)
    const tokenId = randomUUID()
    const iat = Math.floor(this.now() / 1000)
    const token = await new SignJWT({ step: grant.stepId, tenant: grant.tenant, scope: [...grant.scope] })
      .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT', kid: this.kid })
      .setIssuer(CAPABILITY_ISSUER)
      .setAudience(grant.arm)
      .setSubject(grant.taskId)
      .setJti(tokenId)
      .setIssuedAt(iat)
      .setExpirationTime(iat + grant.ttlSeconds)
      .sign(this.privateKey)
    return { token, tokenId }
  }

  /**
   * Every published public key (its own first), or its own alone without a database. Concurrent
   * calls share one query: the key set is public and served unauthenticated, so a burst of
   * requests costs the database one read at a time (a caller may get a read begun just before it
   * arrived; verifiers refetch on an unknown `kid` anyway).
   */
  jwks(): Promise<{ keys: JWK[] }> {
    if (this.opts.sql === undefined) return Promise.resolve({ keys: [this.publicJwk] })
    this.reading ??= this.readJwks().finally(() => (this.reading = undefined))
    return this.reading
  }

  private async readJwks(): Promise<{ keys: JWK[] }> {
    const { rows } = await this.opts.sql!.query<{ public_jwk: JWK | string }>(
      'select public_jwk from capability_keys where kid <> $1 order by created_at',
      [this.kid],
    )
    const others = rows.map((r) => (typeof r.public_jwk === 'string' ? (JSON.parse(r.public_jwk) as JWK) : r.public_jwk))
    return { keys: [this.publicJwk, ...others] }
  }

  /** Checks tokens against this issuer's own key: the in-process arms only ever see its tokens. */
  localVerifier(): CapabilityVerifier {
    return localVerifier({ keys: [this.publicJwk] })
  }

  /** Upserts this key as seen now and deletes keys unseen past the limit. The timer calls it. */
  async publish(): Promise<void> {
    const sql = this.opts.sql
    if (sql === undefined) return
    const stale = this.opts.staleAfterSeconds ?? 86_400
    await sql.query(
      `insert into capability_keys (kid, public_jwk) values ($1, $2::jsonb)
       on conflict (kid) do update set last_seen_at = now(), public_jwk = excluded.public_jwk`,
      [this.kid, JSON.stringify(this.publicJwk)],
    )
    await sql.query(`delete from capability_keys where last_seen_at < now() - make_interval(secs => $1) and kid <> $2`, [stale, this.kid])
  }

  /** Stops the refresh. The published key stays until it goes stale: tokens already out still verify. */
  async close(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer)
    this.timer = undefined
  }

  private now(): number {
    return this.opts.now?.() ?? Date.now()
  }
}

async function generated(): Promise<{ privateKey: CryptoKey; publicJwk: JWK }> {
  const pair = await generateKeyPair('EdDSA', { crv: 'Ed25519' })
  const { kty, crv, x } = await exportJWK(pair.publicKey)
  return { privateKey: pair.privateKey, publicJwk: { kty, crv, x } }
}

/** The key's own text is never put in an error message: it is a secret. */
async function imported(text: string): Promise<{ privateKey: CryptoKey; publicJwk: JWK }> {
  const bad = (why: string) =>
    new Error(`the capability private key is not usable: ${why}; give an Ed25519 key as PKCS8 PEM or a private JWK`)
  const trimmed = text.trim()
  let jwk: JWK
  if (trimmed.startsWith('-----BEGIN')) {
    let key: CryptoKey
    try {
      key = await importPKCS8(trimmed, 'EdDSA', { extractable: true })
    } catch {
      throw bad('the PEM does not hold an Ed25519 private key')
    }
    jwk = await exportJWK(key)
  } else {
    try {
      jwk = JSON.parse(trimmed) as JWK
    } catch {
      throw bad('it is neither PEM nor JSON')
    }
  }
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.d !== 'string' || typeof jwk.x !== 'string')
    throw bad('the JWK is not an Ed25519 private key (kty OKP, crv Ed25519, d and x)')
  let privateKey: CryptoKey
  try {
    privateKey = (await importJWK({ kty: 'OKP', crv: 'Ed25519', x: jwk.x, d: jwk.d }, 'EdDSA')) as CryptoKey
  } catch {
    throw bad('the JWK could not be imported')
  }
  return { privateKey, publicJwk: { kty: 'OKP', crv: 'Ed25519', x: jwk.x } }
}
