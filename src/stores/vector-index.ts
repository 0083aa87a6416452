/**
 * Where the vectors of one kind of row (knowledge chunks, episodes) are kept and searched: in the
 * rows themselves (pgvector's column or `real[]`, sql-vector-index.ts) or in Qdrant
 * (qdrant-vector-index.ts). The stores keep everything else in SQL and ask this for the nearest ids.
 *
 * ```ts
 * await index.upsert([{ id: 'doc:0', tenant: 'acme', embedder: 'hashing-384-v1', vector, documentId: 'doc' }])
 * await index.search(vector, 50, 0.1, 'acme', 'hashing-384-v1') // [{ id, similarity }…] best first
 * await index.deleteDocument('doc')
 * ```
 *
 * Every search names the tenant (or `ANY_TENANT`) and the embedder: a vector of another tenant or
 * another embedder is never a hit. Similarity is the cosine; vectors are stored at unit length.
 * Hits are best first, ties by id (byte order), and strictly above `min`.
 */
import type { TenantScope } from './tenant.js'

/** `pgvector` and `array` keep the vectors in the SQL rows; `qdrant` in a Qdrant server. */
export type VectorIndexKind = 'pgvector' | 'array' | 'qdrant'

export interface VectorPoint {
  /** The row's id: a chunk id or a task id. */
  id: string
  tenant: string
  embedder: string
  vector: readonly number[]
  /** The chunk's document, so a document's points can be deleted together. */
  documentId?: string
}

export interface VectorHit {
  id: string
  similarity: number
}

export interface VectorIndex {
  /** Which kind, found on first use (the SQL kinds depend on the database's columns). */
  kind(): Promise<VectorIndexKind>
  /**
   * Stores (or replaces) the points. A no-op where the vectors are columns of the rows: the store
   * writes them with the row. Call it after the rows are written, inside their transaction, so a
   * failure here undoes them.
   */
  upsert(points: readonly VectorPoint[]): Promise<void>
  /** Removes the points of these row ids (no-op in the rows' kinds: deleting the row is enough). */
  deleteIds(ids: readonly string[]): Promise<void>
  /** Removes the points of a document's chunks. */
  deleteDocument(documentId: string): Promise<void>
  /** Removes every point of a tenant. */
  deleteTenant(tenant: string): Promise<void>
  /** The `k` points of `tenant` and `embedder` most similar to `vector` above `min`, best first. */
  search(vector: readonly number[], k: number, min: number, tenant: TenantScope, embedder: string): Promise<VectorHit[]>
  /** Reachable, for health checks; never throws. */
  check(): Promise<{ ok: boolean; detail: string }>
}

/**
 * The vector store could not be reached or did not answer in time: the request that needed it
 * fails with 503 SERVICE_UNAVAILABLE naming `dependency`, and the client may try again.
 */
export class VectorIndexUnavailableError extends Error {
  constructor(
    readonly dependency: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'VectorIndexUnavailableError'
  }
}
