/**
 * The API key store port: the records of API keys, each with the hash of its secret.
 *
 * ```ts
 * await keys.insert({ id, tenant: 'acme', role: 'member', name: 'ci', secret_hash })
 * const stored = await keys.get(id)        // with secret_hash and revoked_at, for the verifier
 * await keys.revoke(id)                    // the record, revoked (again: unchanged); undefined if unknown
 * ```
 *
 * The store never sees a key or a secret: minting and checking them is `src/auth/api-keys.ts`'s.
 * Left out on purpose: deleting keys (a revoked key stays listed, as a record of who had access),
 * un-revoking, renaming, and changing a key's role or tenant (revoke it and create another).
 */
import type { Role } from '../auth/principal.js'

/** A key as the API lists it: no secret, no hash. Timestamps are ISO-8601 (`…Z`). */
export interface ApiKeyRecord {
  id: string
  tenant: string
  role: Role
  name: string
  created_at: string
  revoked_at: string | null
  last_used_at: string | null
  /** Writes per minute this key may make; null: the server's default, 0: no limit. */
  rate_limit: number | null
  /** Reads (GET, HEAD) per minute; null: the server's default, 0: no limit. */
  read_rate_limit: number | null
}

export interface NewApiKey {
  id: string
  tenant: string
  role: Role
  name: string
  /** SHA-256 of the secret, 32 bytes. */
  secret_hash: Uint8Array
  rate_limit?: number | undefined
  read_rate_limit?: number | undefined
}

export interface StoredApiKey extends ApiKeyRecord {
  secret_hash: Uint8Array
}

export type ApiKeySortKey = 'created_at' | 'name' | 'tenant'

export interface ApiKeyListOptions {
  /** Only this tenant's keys; unset → every tenant's. */
  tenant?: string
  sortBy: ApiKeySortKey
  order: 'asc' | 'desc'
  limit: number
  offset: number
}

export interface ApiKeyStore {
  /** Stores a new key; its `created_at` is the database's clock. */
  insert(key: NewApiKey): Promise<ApiKeyRecord>
  /** The key with its hash, revoked or not; undefined for an unknown id. */
  get(id: string): Promise<StoredApiKey | undefined>
  list(opts: ApiKeyListOptions): Promise<{ items: ApiKeyRecord[]; total: number }>
  /** Marks the key revoked (once: a second call changes nothing) and returns it; undefined for an unknown id. */
  revoke(id: string): Promise<ApiKeyRecord | undefined>
  /** Sets `last_used_at` to `at` unless it is already within `minIntervalMs` of it. */
  touch(id: string, at: Date, minIntervalMs: number): Promise<void>
}
