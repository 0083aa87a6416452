/**
 * The knowledge store on the SQL port (PGlite or PostgreSQL): full text through a generated
 * tsvector column, vectors through a vector index (vector-index.ts): in the rows, pgvector when the
 * migration could add its column, else `real[]` (sql-vector-index.ts), or in Qdrant
 * (qdrant-vector-index.ts). The choice is made once, at open.
 *
 * ```ts
 * const knowledge = await SqlKnowledgeStore.open(sql)                     // hashing embedder
 * const knowledge = await SqlKnowledgeStore.open(sql, providerEmbedder(llm, 'nomic-embed-text'), { candidates: 100 })
 * knowledge.vectorPath // 'pgvector' | 'array' | 'qdrant'
 * ```
 *
 * Every statement filters by the tenant scope (documents, chunks, both lists of a search), so a
 * search ranks the tenant's own chunks only: another tenant's never take a candidate's place.
 *
 * Both lists are capped at `candidates` (50) before fusion. The `array` path scans an in-memory
 * copy of the embedder's vectors (vector-scan.ts; reloaded when any process changed the chunks),
 * O(chunks × dimensions) per search but in a tight loop, and falls back to comparing the `real[]`
 * column in SQL (~150 µs a chunk) past 16 M numbers (docs/arms/retriever.md). pgvector's column
 * has no fixed dimension, so no ANN index either: an exact scan too, but in C.
 */
import { randomUUID } from 'node:crypto'
import { type Injection, type InjectionScreen, passages } from '../injected-passages.js'
import type { Embedder } from '../llm/embedder.js'
import { HashingEmbedder } from '../llm/hashing-embedder.js'
import { type ChunkOptions, chunkText, type TextChunk } from './chunk-text.js'
import {
  type FlaggedPassage,
  fuseRanks,
  type IngestedDocument,
  type KnowledgeDocument,
  type KnowledgeStore,
  type ListOptions,
  type NewDocument,
  type SearchHit,
  type SearchOptions,
  type StoredDocument,
} from './knowledge-store.js'
import type { Sql } from './sql.js'
import { SqlVectorIndex, vectorLiteral } from './sql-vector-index.js'
import { ANY_TENANT, type TenantScope, tenantFilter } from './tenant.js'
import type { VectorIndex, VectorIndexKind } from './vector-index.js'

export interface SqlKnowledgeStoreOptions {
  /** Cosine similarity a chunk must exceed to be a vector candidate. Default 0.1 (see the docs). */
  minSimilarity?: number
  /** Length of each ranked list before fusion. Default 50. */
  candidates?: number
  chunking?: ChunkOptions
  /** Finds injected passages at ingest (injected-passages.ts `injectionScreen`); none: every chunk is clean. */
  screen?: InjectionScreen
  /** Where the vectors are kept and searched; default: in the rows (sql-vector-index.ts). */
  vectors?: VectorIndex
}

/** A chunk as stored: clean (`injection` null) or one flagged passage. */
interface ScreenedChunk extends TextChunk {
  injection: Injection | null
}

// Chunks embedded per embedder call: bounds one request to a remote embeddings endpoint.
const EMBED_BATCH = 64
// Chunk rows per INSERT: 10 parameters each, far below PostgreSQL's 65,535.
const INSERT_BATCH = 100

interface DocumentRow {
  document_id: string
  title: string | null
  source: string | null
  metadata: Record<string, unknown>
  chars: number
  chunk_count: number
  flagged: number | string
  created_at: Date
  text?: string
}

function toDocument(row: DocumentRow): KnowledgeDocument {
  return {
    document_id: row.document_id,
    title: row.title,
    source: row.source,
    metadata: row.metadata,
    chunks: Number(row.chunk_count),
    flagged: Number(row.flagged),
    chars: Number(row.chars),
    created_at: row.created_at.toISOString(),
  }
}

const DOCUMENT_COLUMNS = `document_id, title, source, metadata, length(text) as chars, chunk_count, created_at,
  (select count(*) from knowledge_chunks c where c.document_id = knowledge_documents.document_id and c.injection is not null) as flagged`

/**
 * `chunks` with each one the screen flags split into passages (clean runs and injected sentences),
 * each passage a chunk of its own, with its start in the document.
 */
export async function screenChunks(
  text: string,
  chunks: readonly TextChunk[],
  screen: InjectionScreen | undefined,
): Promise<ScreenedChunk[]> {
  if (screen === undefined) return chunks.map((c) => ({ ...c, injection: null }))
  const out: ScreenedChunk[] = []
  for (const chunk of chunks) {
    const parts = await passages(chunk.text, screen)
    if (parts.length === 1 && parts[0]!.injection === null) {
      out.push({ ...chunk, injection: null })
      continue
    }
    // A chunk is a span of the document that begins at or before its own text (the overlap).
    const at = text.lastIndexOf(chunk.text, chunk.start)
    for (const p of parts) out.push({ text: p.text, start: Math.max(0, at) + p.start, injection: p.injection })
  }
  return out
}

export class SqlKnowledgeStore implements KnowledgeStore {
  private constructor(
    private readonly sql: Sql,
    readonly embedder: Embedder,
    private readonly vectors: VectorIndex,
    readonly vectorPath: VectorIndexKind,
    private readonly minSimilarity: number,
    private readonly candidates: number,
    private readonly chunking: ChunkOptions,
    private readonly screen: InjectionScreen | undefined,
  ) {}

  /** `embedder` defaults to `new HashingEmbedder()`. */
  static async open(sql: Sql, embedder: Embedder = new HashingEmbedder(), opts: SqlKnowledgeStoreOptions = {}): Promise<SqlKnowledgeStore> {
    const vectors = opts.vectors ?? new SqlVectorIndex(sql, 'knowledge_chunks')
    const path = await vectors.kind()
    return new SqlKnowledgeStore(
      sql,
      embedder,
      vectors,
      path,
      opts.minSimilarity ?? 0.1,
      opts.candidates ?? 50,
      opts.chunking ?? {},
      opts.screen,
    )
  }

  async ingest(tenant: string, docs: readonly NewDocument[], signal?: AbortSignal): Promise<IngestedDocument[]> {
    const planned: Array<{ doc: NewDocument; id: string; chunks: ScreenedChunk[] }> = []
    for (const doc of docs) {
      signal?.throwIfAborted()
      planned.push({ doc, id: randomUUID(), chunks: await screenChunks(doc.text, chunkText(doc.text, this.chunking), this.screen) })
    }
    // Embedding can be slow (a remote model): do it all before the transaction, not inside it.
    const texts = planned.flatMap((p) => p.chunks.map((c) => c.text))
    const vectors: number[][] = []
    for (let i = 0; i < texts.length; i += EMBED_BATCH) {
      signal?.throwIfAborted()
      vectors.push(...(await this.embedder.embed(texts.slice(i, i + EMBED_BATCH), signal)))
    }
    signal?.throwIfAborted()
    const pg = this.vectorPath === 'pgvector'
    const columns = `chunk_id, document_id, tenant, position, start_offset, text, injection, embedder, embedding${pg ? ', embedding_vec' : ''}`
    const width = pg ? 10 : 9
    const row = (n: number) => {
      const p = (i: number) => `$${n * width + i}`
      return `(${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}::jsonb, ${p(8)}, ${p(9)}::real[]${pg ? `, ${p(10)}::vector` : ''})`
    }
    await this.sql.transaction(async (tx) => {
      let v = 0
      for (const { doc, id, chunks } of planned) {
        await tx.query(
          `insert into knowledge_documents (document_id, tenant, title, source, metadata, text, chunk_count)
           values ($1, $2, $3, $4, $5::jsonb, $6, $7)`,
          [id, tenant, doc.title ?? null, doc.source ?? null, JSON.stringify(doc.metadata ?? {}), doc.text, chunks.length],
        )
        // Many rows per statement: one round trip per row made a 1 MB document take seconds.
        for (let from = 0; from < chunks.length; from += INSERT_BATCH) {
          const batch = chunks.slice(from, from + INSERT_BATCH)
          const params: unknown[] = []
          batch.forEach((chunk, i) => {
            const vector = vectors[v++]!
            const injection = chunk.injection === null ? null : JSON.stringify(chunk.injection)
            params.push(`${id}:${from + i}`, id, tenant, from + i, chunk.start, chunk.text, injection, this.embedder.id, vector)
            if (pg) params.push(vectorLiteral(vector))
          })
          await tx.query(`insert into knowledge_chunks (${columns}) values ${batch.map((_, i) => row(i)).join(', ')}`, params)
        }
      }
      // The rows first, then the points: a vector store that fails undoes the rows (all or none).
      let w = 0
      const points = planned.flatMap(({ id, chunks }) =>
        chunks.map((_, i) => ({ id: `${id}:${i}`, documentId: id, tenant, embedder: this.embedder.id, vector: vectors[w++]! })),
      )
      await this.vectors.upsert(points)
    })
    return planned.map(({ doc, id, chunks }) => ({
      document_id: id,
      title: doc.title ?? null,
      chunks: chunks.length,
      flagged: chunks.filter((c) => c.injection !== null).length,
    }))
  }

  async search(tenant: TenantScope, query: string, opts: SearchOptions): Promise<SearchHit[]> {
    const { k, signal } = opts
    if (!Number.isInteger(k) || k < 1) throw new RangeError(`search: k must be a positive integer, got ${k}`)
    const [vector = []] = await this.embedder.embed([query], signal)
    signal?.throwIfAborted()
    const ftsParams: unknown[] = [query, this.candidates]
    const [fts, nearest] = await Promise.all([
      this.sql.query<{ id: string }>(
        `select c.chunk_id as id from knowledge_chunks c, websearch_to_tsquery('english', $1) q
          where c.tsv @@ q${tenantFilter(tenant, 'c.tenant', ftsParams)} order by ts_rank(c.tsv, q) desc, c.chunk_id limit $2`,
        ftsParams,
      ),
      // A query with no words has the zero vector: nothing is near it.
      vector.some((x) => x !== 0) ? this.vectors.search(vector, this.candidates, this.minSimilarity, tenant, this.embedder.id) : [],
    ])
    signal?.throwIfAborted()
    const fused = fuseRanks([fts.rows.map((r) => r.id), nearest.map((r) => r.id)])
    // Without flagged chunks, every candidate is read: the k best clean ones may lie past the first k.
    const wanted = opts.withFlagged ? fused.slice(0, k) : fused
    if (wanted.length === 0) return []
    const hitParams: unknown[] = [wanted.map((t) => t.id)]
    const { rows } = await this.sql.query<{
      chunk_id: string
      document_id: string
      position: number
      text: string
      title: string | null
      source: string | null
      injection: Injection | null
    }>(
      `select c.chunk_id, c.document_id, c.position, c.text, c.injection, d.title, d.source
         from knowledge_chunks c join knowledge_documents d using (document_id)
        where c.chunk_id = any($1::text[])${opts.withFlagged ? '' : ' and c.injection is null'}${tenantFilter(tenant, 'd.tenant', hitParams)}`,
      hitParams,
    )
    const byId = new Map(rows.map((r) => [r.chunk_id, r]))
    const top = wanted.filter((t) => byId.has(t.id)).slice(0, k)
    return top.flatMap(({ id, score, ranks }) => {
      const row = byId.get(id)
      if (!row) return [] // deleted between the two queries
      return [
        {
          document_id: row.document_id,
          chunk_id: id,
          position: row.position,
          title: row.title,
          source: row.source,
          text: row.text,
          score,
          fts_rank: ranks[0] ?? null,
          vector_rank: ranks[1] ?? null,
          injection: row.injection,
        },
      ]
    })
  }

  async get(tenant: TenantScope, documentId: string): Promise<StoredDocument | undefined> {
    const params: unknown[] = [documentId]
    const { rows } = await this.sql.query<DocumentRow & { text: string }>(
      `select ${DOCUMENT_COLUMNS}, text from knowledge_documents where document_id = $1${tenantFilter(tenant, 'tenant', params)}`,
      params,
    )
    const row = rows[0]
    if (!row) return undefined
    return { ...toDocument(row), text: row.text, flagged_passages: await this.flaggedPassages(row.document_id) }
  }

  private async flaggedPassages(documentId: string): Promise<FlaggedPassage[]> {
    const { rows } = await this.sql.query<{ chunk_id: string; start_offset: number; text: string; injection: Injection }>(
      `select chunk_id, start_offset, text, injection from knowledge_chunks
        where document_id = $1 and injection is not null order by position`,
      [documentId],
    )
    return rows.map((r) => ({
      chunk_id: r.chunk_id,
      start: Number(r.start_offset),
      text: r.text,
      severity: r.injection.severity,
      families: r.injection.families,
    }))
  }

  async delete(tenant: TenantScope, documentId: string): Promise<boolean> {
    const params: unknown[] = [documentId]
    // The points go before the delete commits: a vector store that fails keeps the document whole.
    return this.sql.transaction(async (tx) => {
      const { rowCount } = await tx.query(
        `delete from knowledge_documents where document_id = $1${tenantFilter(tenant, 'tenant', params)}`,
        params,
      )
      if (rowCount > 0) await this.vectors.deleteDocument(documentId)
      return rowCount > 0
    })
  }

  async deleteTenant(tenant: string): Promise<number> {
    // As `delete`: the points go before the rows' delete commits.
    return this.sql.transaction(async (tx) => {
      const { rowCount } = await tx.query('delete from knowledge_documents where tenant = $1', [tenant])
      await this.vectors.deleteTenant(tenant)
      return rowCount
    })
  }

  async list(tenant: TenantScope, opts: ListOptions): Promise<{ items: KnowledgeDocument[]; total: number }> {
    const order = opts.order === 'asc' ? 'asc' : 'desc'
    const filter: unknown[] = []
    const where = tenant === ANY_TENANT ? '' : `where tenant = $${filter.push(tenant)}`
    const n = filter.length
    const [page, count] = await Promise.all([
      this.sql.query<DocumentRow>(
        `select ${DOCUMENT_COLUMNS} from knowledge_documents ${where}
          order by created_at ${order}, document_id ${order} limit $${n + 1} offset $${n + 2}`,
        [...filter, opts.limit, opts.offset],
      ),
      this.sql.query<{ n: number | string }>(`select count(*) as n from knowledge_documents ${where}`, filter),
    ])
    return { items: page.rows.map(toDocument), total: Number(count.rows[0]?.n ?? 0) }
  }

  async check(): Promise<{ ok: boolean; detail: string }> {
    try {
      await this.sql.query('select 1 from knowledge_chunks limit 1')
      const vectors = await this.vectors.check()
      return { ok: vectors.ok, detail: `vectors: ${vectors.ok ? this.vectorPath : vectors.detail}, embedder: ${this.embedder.id}` }
    } catch (err) {
      return { ok: false, detail: err instanceof Error ? err.message : String(err) }
    }
  }
}
