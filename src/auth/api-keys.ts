/**
 * API keys: long-lived bearer credentials for programs, each standing for one role in one tenant
 * (docs/security.md#api-keys).
 *
 * ```ts
 * const { key, record } = await createApiKey(store, { tenant: 'acme', role: 'member', name: 'ci' })
 * key            // 'gk_3f9c0a7d51e2b846_…': shown once; only SHA-256 of its secret is stored
 * const verifier = apiKeyVerifier(store)   // for createAuthenticator({ verifiers: [verifier] })
 * await verifier.verify(key)               // { id: 'key:3f9c0a7d51e2b846', tenant: 'acme', roles: ['member'], via: 'api-key' }
 * ```
 *
 * A key is `gk_<id>_<secret>`: the prefix makes it recognisable (to people, to secret scanners,
 * to the authenticator choosing a verifier), the id (16 hex characters) is the public part the
 * record is found by, the secret is 256 random bits in base64url. The verifier looks the id up on
 * every call (the authenticator remembers a verified key for a second), so a revocation is seen
 * by every process on the database within that second.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { LRUCache } from 'lru-cache'
import Type from 'typebox'
import type { ApiKeyRecord, ApiKeyStore, StoredApiKey } from '../stores/api-key-store.js'
import { AuthenticationUnavailableError, type CredentialVerifier } from './authenticator.js'
import { type Principal, type RateLimitOverrides, ROLES, type Role } from './principal.js'

export const API_KEY_PREFIX = 'gk_'

const ID_BYTES = 8 // 16 hex characters: short, and 64 bits never collide in practice
const SECRET_BYTES = 32 // 256 bits: beyond any search, so a fast hash of it is enough (migration 0008)
const KEY_FORM = /^gk_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/

/** The most requests per minute a key may be given: the ceiling of the server-wide limits. */
const MAX_RATE_LIMIT = 1_000_000_000

/** What a key is created with: the body of `POST /api/v1/api-keys`, the options of `ganglion keys create`. */
export const CreateApiKeyRequest = Type.Object(
  {
    tenant: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._-]+$' }),
    role: Type.Enum([...ROLES]),
    // No control characters: names are printed in terminals (`ganglion keys list`) and logs.
    name: Type.String({ minLength: 1, maxLength: 200, pattern: '^[^\\u0000-\\u001f\\u007f]+$' }),
    // Requests per minute, writes and reads apart (docs/cache-and-limits.md); absent: the server's, 0: none.
    rate_limit: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_RATE_LIMIT,
        description: "writes per minute this key may make; absent: the server's RATE_LIMIT_PER_USER; 0: no limit",
      }),
    ),
    read_rate_limit: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_RATE_LIMIT,
        description: "reads (GET, HEAD) per minute; absent: the server's RATE_LIMIT_READS_PER_USER; 0: no limit",
      }),
    ),
  },
  { additionalProperties: false },
)
export type CreateApiKeyRequest = Type.Static<typeof CreateApiKeyRequest>

/** A key just created: its record and the key itself, which nothing can show again. */
export interface CreatedApiKey {
  record: ApiKeyRecord
  key: string
}

/** Mints a key for `req` and stores its record with the hash of its secret. */
export async function createApiKey(store: Pick<ApiKeyStore, 'insert'>, req: CreateApiKeyRequest): Promise<CreatedApiKey> {
  const id = randomBytes(ID_BYTES).toString('hex')
  const secret = randomBytes(SECRET_BYTES).toString('base64url')
  const record = await store.insert({
    id,
    tenant: req.tenant,
    role: req.role as Role,
    name: req.name,
    secret_hash: hashSecret(secret),
    rate_limit: req.rate_limit,
    read_rate_limit: req.read_rate_limit,
  })
  return { record, key: `${API_KEY_PREFIX}${id}_${secret}` }
}

/** What the API and the CLI show of a key just created: its record without the fields still empty, and the key. */
export function createdBody(record: ApiKeyRecord, key: string): Record<string, unknown> {
  const { id, revoked_at: _r, last_used_at: _u, ...rest } = record
  return { id, key, ...rest }
}

export interface ApiKeyVerifierOptions {
  /** `last_used_at` is written at most this often per key and process. Default 60,000 ms. */
  touchEveryMs?: number
  /** The clock, for tests. */
  now?: () => number
  /** Writing `last_used_at` failed (the database is down); the key was verified all the same. */
  onError?: (err: unknown) => void
}

/** Keys whose last write of `last_used_at` this process remembers; the least recently used go first past it. */
const TOUCHED = 10_000

/** Compared with when no key has the id, so an unknown id takes the path a wrong secret does. */
const NO_HASH = new Uint8Array(32)

/**
 * The `CredentialVerifier` of API keys: accepts every `gk_` token, and verifies those whose
 * record exists, is not revoked, and holds the hash of the token's secret (compared in constant
 * time). A verified key's `last_used_at` is written in the background, at most once a minute.
 */
export function apiKeyVerifier(store: Pick<ApiKeyStore, 'get' | 'touch'>, options: ApiKeyVerifierOptions = {}): CredentialVerifier {
  const touchEveryMs = options.touchEveryMs ?? 60_000
  const now = options.now ?? Date.now
  const touched = new LRUCache<string, number>({ max: TOUCHED })

  const touch = (id: string): void => {
    const at = now()
    const last = touched.get(id)
    if (last !== undefined && at - last < touchEveryMs) return
    touched.set(id, at)
    store.touch(id, new Date(at), touchEveryMs).catch((err: unknown) => options.onError?.(err))
  }

  return {
    // Every `gk_` token is this verifier's to refuse: a malformed key is a 401, not "unknown form".
    accepts: (token) => token.startsWith(API_KEY_PREFIX),
    async verify(token): Promise<Principal | undefined> {
      const parts = KEY_FORM.exec(token)
      if (parts === null) return undefined
      const [, id, secret] = parts as unknown as [string, string, string]
      const presented = hashSecret(secret)
      let stored: StoredApiKey | undefined
      try {
        stored = await store.get(id)
      } catch (err) {
        // The key can be judged neither way: a 503 the client retries, not a 401 that says "throw it away".
        throw new AuthenticationUnavailableError('API keys cannot be checked: the database is unreachable', 'database', { cause: err })
      }
      // Always one constant-time comparison, whether the id is known or not.
      const same = timingSafeEqual(presented, stored?.secret_hash ?? NO_HASH)
      if (stored === undefined || !same || stored.revoked_at !== null) return undefined
      touch(id)
      const limits = limitsOf(stored)
      return Object.freeze({
        id: `key:${id}`,
        tenant: stored.tenant,
        roles: Object.freeze([stored.role]),
        via: 'api-key' as const,
        ...(limits !== undefined && { limits }),
      })
    },
  }
}

/** The key's own rate limits, if it has any. */
function limitsOf(key: ApiKeyRecord): RateLimitOverrides | undefined {
  if (key.rate_limit === null && key.read_rate_limit === null) return undefined
  return Object.freeze({
    ...(key.rate_limit !== null && { writes: key.rate_limit }),
    ...(key.read_rate_limit !== null && { reads: key.read_rate_limit }),
  })
}

/** SHA-256 of a key's secret: what the store keeps. */
export function hashSecret(secret: string): Uint8Array {
  return createHash('sha256').update(secret).digest()
}
