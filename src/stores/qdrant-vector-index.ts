/**
 * The vector index in Qdrant (`QDRANT_URL`), through `@qdrant/js-client-rest`. Rows stay in SQL
 * (with their `real[]` copy, the record a Qdrant collection can be rebuilt from); Qdrant holds one
 * point per row and answers the nearest ones.
 *
 * ```ts
 * const qdrant = new QdrantIndexes({ url: 'http://127.0.0.1:6333', prefix: 'ganglion' })
 * const chunks = qdrant.index('knowledge')   // collections ganglion_knowledge_<dimensions>
 * const episodes = qdrant.index('episodes')
 * ```
 *
 * One collection per kind and vector size (an embedder change to another size gets a collection of
 * its own), cosine distance, created on first write with keyword payload indexes on `tenant`,
 * `embedder` and `document_id`. A point's id is a UUID derived from its row's id (Qdrant accepts
 * only UUIDs and integers); the row's id is in the payload. Every search filters on tenant and
 * embedder, so another tenant's or embedder's point is never a hit.
 *
 * A Qdrant that cannot be reached, times out or answers 5xx throws `VectorIndexUnavailableError`
 * (dependency `qdrant`): the request answers 503. A 4xx answer is a fault of this code, thrown as is.
 */
import { createHash } from 'node:crypto'
import { QdrantClient } from '@qdrant/js-client-rest'
import { ANY_TENANT, type TenantScope } from './tenant.js'
import { type VectorHit, type VectorIndex, VectorIndexUnavailableError, type VectorPoint } from './vector-index.js'

export type QdrantKind = 'knowledge' | 'episodes'

export interface QdrantSettings {
  url: string
  apiKey?: string
  /** Collection names begin `<prefix>_`. */
  prefix: string
  /** Per request, milliseconds. Default 10 s. */
  timeoutMs?: number
}

/** Points per upsert request: bounds one request's body (384 floats ≈ 4 KB of JSON each). */
const UPSERT_BATCH = 256

/** The client shared by the indexes of every kind, and which collections exist. */
export class QdrantIndexes {
  readonly client: QdrantClient
  private readonly known = new Map<string, Promise<void>>()

  constructor(readonly settings: QdrantSettings) {
    this.client = new QdrantClient({
      url: settings.url,
      ...(settings.apiKey !== undefined && { apiKey: settings.apiKey }),
      timeout: settings.timeoutMs ?? 10_000,
      checkCompatibility: false,
    })
  }

  index(kind: QdrantKind): QdrantVectorIndex {
    return new QdrantVectorIndex(this, kind)
  }

  collectionName(kind: QdrantKind, dimensions: number): string {
    return `${this.settings.prefix}_${kind}_${dimensions}`
  }

  /** Creates the collection and its payload indexes once per process (and tolerates another process doing the same). */
  ensureCollection(name: string, dimensions: number): Promise<void> {
    let pending = this.known.get(name)
    if (pending === undefined) {
      pending = this.create(name, dimensions)
      pending.catch(() => this.known.delete(name)) // tried again by the next write
      this.known.set(name, pending)
    }
    return pending
  }

  private async create(name: string, dimensions: number): Promise<void> {
    const { exists } = await this.client.collectionExists(name)
    if (!exists) {
      try {
        await this.client.createCollection(name, { vectors: { size: dimensions, distance: 'Cosine' } })
      } catch (err) {
        // Another process created it between the two calls.
        if (!(await this.client.collectionExists(name)).exists) throw err
      }
    }
    for (const field of ['tenant', 'embedder', 'document_id']) {
      await this.client.createPayloadIndex(name, { field_name: field, field_schema: 'keyword', wait: true })
    }
  }

  /** Forgets that `name` exists: it was deleted behind this process's back, and the next write creates it again. */
  forget(name: string): void {
    this.known.delete(name)
  }

  /** The names of the existing collections of `kind`, every vector size. */
  async collections(kind: QdrantKind): Promise<string[]> {
    const { collections } = await this.client.getCollections()
    const start = `${this.settings.prefix}_${kind}_`
    return collections.map((c) => c.name).filter((n) => n.startsWith(start) && /^\d+$/.test(n.slice(start.length)))
  }

  /** Drops every collection of this prefix: erases the vectors of every deployment that shares it. */
  async dropAll(): Promise<void> {
    const { collections } = await this.client.getCollections()
    for (const c of collections) if (c.name.startsWith(`${this.settings.prefix}_`)) await this.client.deleteCollection(c.name)
    this.known.clear()
  }
}

/** The point id of a row: a UUID from a hash of the kind and the row's id. */
export function pointId(kind: QdrantKind, id: string): string {
  const h = createHash('sha256').update(`${kind}\0${id}`).digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`
}

type Filter = { must: Array<{ key: string; match: { value: string } }> }

function matching(conditions: Record<string, string>): Filter {
  return { must: Object.entries(conditions).map(([key, value]) => ({ key, match: { value } })) }
}

export class QdrantVectorIndex implements VectorIndex {
  constructor(
    private readonly qdrant: QdrantIndexes,
    private readonly kindOfRows: QdrantKind,
  ) {}

  async kind(): Promise<'qdrant'> {
    return 'qdrant'
  }

  upsert(points: readonly VectorPoint[]): Promise<void> {
    return guard(async () => {
      // A zero vector (a text with no words) is near nothing: it gets no point.
      const bySize = new Map<number, VectorPoint[]>()
      for (const p of points) {
        if (!p.vector.some((x) => x !== 0)) continue
        const list = bySize.get(p.vector.length) ?? []
        list.push(p)
        bySize.set(p.vector.length, list)
      }
      for (const [size, list] of bySize) {
        const name = this.qdrant.collectionName(this.kindOfRows, size)
        try {
          await this.upsertInto(name, size, list)
        } catch (err) {
          if (statusOf(err) !== 404) throw err
          this.qdrant.forget(name) // deleted since this process created it: once more, creating it
          await this.upsertInto(name, size, list)
        }
      }
      // A row whose vector changed size (another embedder) leaves its old point behind: remove it.
      const others = (await this.qdrant.collections(this.kindOfRows)).filter(
        (n) => ![...bySize.keys()].some((size) => n === this.qdrant.collectionName(this.kindOfRows, size)),
      )
      const ids = points.map((p) => pointId(this.kindOfRows, p.id))
      for (const name of others) await this.qdrant.client.delete(name, { wait: true, points: ids })
    })
  }

  private async upsertInto(name: string, size: number, list: readonly VectorPoint[]): Promise<void> {
    await this.qdrant.ensureCollection(name, size)
    for (let i = 0; i < list.length; i += UPSERT_BATCH) {
      await this.qdrant.client.upsert(name, {
        wait: true,
        points: list.slice(i, i + UPSERT_BATCH).map((p) => ({
          id: pointId(this.kindOfRows, p.id),
          vector: [...p.vector],
          payload: { id: p.id, tenant: p.tenant, embedder: p.embedder, ...(p.documentId !== undefined && { document_id: p.documentId }) },
        })),
      })
    }
  }

  deleteIds(ids: readonly string[]): Promise<void> {
    return this.deleteEverywhere({ points: ids.map((id) => pointId(this.kindOfRows, id)) })
  }

  deleteDocument(documentId: string): Promise<void> {
    return this.deleteEverywhere({ filter: matching({ document_id: documentId }) })
  }

  deleteTenant(tenant: string): Promise<void> {
    return this.deleteEverywhere({ filter: matching({ tenant }) })
  }

  private deleteEverywhere(selector: { points: string[] } | { filter: Filter }): Promise<void> {
    return guard(async () => {
      if ('points' in selector && selector.points.length === 0) return
      for (const name of await this.qdrant.collections(this.kindOfRows)) await this.qdrant.client.delete(name, { wait: true, ...selector })
    })
  }

  search(vector: readonly number[], k: number, min: number, tenant: TenantScope, embedder: string): Promise<VectorHit[]> {
    return guard(async () => {
      const name = this.qdrant.collectionName(this.kindOfRows, vector.length)
      const filter = matching(tenant === ANY_TENANT ? { embedder } : { tenant, embedder })
      let points: Array<{ score: number; payload?: Record<string, unknown> | null }>
      try {
        ;({ points } = await this.qdrant.client.query(name, {
          query: [...vector],
          limit: k,
          filter,
          score_threshold: min,
          with_payload: ['id'],
        }))
      } catch (err) {
        if (statusOf(err) === 404) return [] // no collection of this size yet: nothing stored
        throw err
      }
      return points
        .map((p) => ({ id: String(p.payload?.id ?? ''), similarity: p.score }))
        .filter((h) => h.id !== '' && h.similarity > min)
        .sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    })
  }

  async check(): Promise<{ ok: boolean; detail: string }> {
    try {
      await guard(() => this.qdrant.client.getCollections())
      return { ok: true, detail: 'qdrant' }
    } catch (err) {
      return { ok: false, detail: `qdrant: ${err instanceof Error ? err.message : String(err)}` }
    }
  }
}

/** The HTTP status of a Qdrant answer the client threw, if it was one. */
function statusOf(err: unknown): number | undefined {
  const status = (err as { status?: unknown } | null)?.status
  return typeof status === 'number' ? status : undefined
}

/** `fn`, with "Qdrant is not there" (no connection, a timeout, 5xx, 429) as `VectorIndexUnavailableError`. */
async function guard<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (err) {
    const status = statusOf(err)
    if (status !== undefined && status < 500 && status !== 408 && status !== 429) throw err
    const reason = err instanceof Error ? err.message.split('\n')[0] : String(err)
    throw new VectorIndexUnavailableError('qdrant', `Qdrant is unavailable: ${reason}`, { cause: err })
  }
}
