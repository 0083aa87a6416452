/**
 * Copies into Qdrant the vectors of rows written before it kept them: every row holds its vector in
 * `embedding real[]`, so a deployment that sets QDRANT_URL later loses no document to full text only.
 *
 * ```ts
 * await backfillQdrant(sql, qdrant)                         // { knowledge: 1200, episodes: 300 } points written
 * await backfillQdrant(sql, qdrant, { onlyWhenBehind: true }) // only kinds with fewer points than rows (at start-up)
 * ```
 *
 * Rows are read in id order, `batch` at a time, and upserted under the ids every write uses, so a
 * second run (another process starting at the same time) rewrites the same points. A row deleted
 * while its batch was in flight could leave its point behind: after each batch the ids no longer
 * in the table have their points deleted again.
 */
import type { QdrantIndexes, QdrantKind } from './qdrant-vector-index.js'
import type { Sql } from './sql.js'
import type { VectorPoint } from './vector-index.js'

const SOURCES = {
  knowledge: { table: 'knowledge_chunks', id: 'chunk_id', document: ', document_id' },
  episodes: { table: 'episodes', id: 'task_id', document: '' },
} as const

export interface BackfillOptions {
  /** Rows per read and upsert. Default 256. */
  batch?: number
  /**
   * Only the kinds whose collections hold fewer points than the table has rows with a vector: the
   * first start with Qdrant, or one after a copy that did not finish.
   */
  onlyWhenBehind?: boolean
}

/** Rows copied per kind. */
export async function backfillQdrant(sql: Sql, qdrant: QdrantIndexes, opts: BackfillOptions = {}): Promise<Record<QdrantKind, number>> {
  const written: Record<QdrantKind, number> = { knowledge: 0, episodes: 0 }
  for (const kind of Object.keys(SOURCES) as QdrantKind[]) {
    if (opts.onlyWhenBehind && !(await behind(sql, qdrant, kind))) continue
    written[kind] = await backfillKind(sql, qdrant, kind, opts.batch ?? 256)
  }
  return written
}

/** Whether the kind's collections hold fewer points than its table has rows with a non-zero vector. */
async function behind(sql: Sql, qdrant: QdrantIndexes, kind: QdrantKind): Promise<boolean> {
  const { rows } = await sql.query<{ n: string | number }>(
    `select count(*) as n from ${SOURCES[kind].table} t where exists (select 1 from unnest(t.embedding) as x where x <> 0)`,
  )
  let points = 0
  for (const name of await qdrant.collections(kind)) points += (await qdrant.client.count(name, { exact: true })).count
  return points < Number(rows[0]?.n ?? 0)
}

async function backfillKind(sql: Sql, qdrant: QdrantIndexes, kind: QdrantKind, batch: number): Promise<number> {
  const { table, id, document } = SOURCES[kind]
  const index = qdrant.index(kind)
  let after = ''
  let written = 0
  for (;;) {
    const { rows } = await sql.query<{ id: string; tenant: string; embedder: string; embedding: number[]; document_id?: string }>(
      `select ${id} as id, tenant, embedder, embedding${document} from ${table} where ${id} > $1 order by ${id} limit $2`,
      [after, batch],
    )
    if (rows.length === 0) return written
    const points: VectorPoint[] = rows.map((r) => ({
      id: r.id,
      tenant: r.tenant,
      embedder: r.embedder,
      vector: r.embedding.map(Number),
      ...(r.document_id !== undefined && { documentId: r.document_id }),
    }))
    await index.upsert(points)
    const ids = rows.map((r) => r.id)
    const { rows: still } = await sql.query<{ id: string }>(`select ${id} as id from ${table} where ${id} = any($1::text[])`, [ids])
    const kept = new Set(still.map((r) => r.id))
    await index.deleteIds(ids.filter((i) => !kept.has(i)))
    written += rows.length
    after = rows[rows.length - 1]!.id
  }
}
