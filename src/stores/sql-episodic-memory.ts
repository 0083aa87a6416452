/**
 * Episodic memory (src/arms/memory.ts) on the SQL port: one row per completed task in `episodes`,
 * its goal embedded, compared by cosine similarity through a vector index (vector-index.ts): in the rows, as the
 * knowledge store's (pgvector's `<=>` when its column exists; otherwise an in-memory copy kept
 * current row by row, episode-scan.ts, or `real[]` in SQL while the copy loads or when it would be
 * too large), or in Qdrant.
 *
 * ```ts
 * const memory = new SqlEpisodicMemory(sql, embedder)
 * await memory.remember('acme', { task_id, goal, steps, outcome, completed_at })   // an upsert
 * await memory.similar('acme', 'count the lines of this file', 3)               // best first, score 0..1
 * ```
 *
 * Each episode is kept with its task's tenant, and `similar` compares the goal with that tenant's
 * episodes only, on every path (the in-memory copy skips other tenants' rows, the SQL filters
 * them). An upsert never moves an episode to another tenant.
 *
 * Only episodes embedded by this memory's embedder are compared. Scores are cosine similarity
 * with negatives (possible with signed feature hashing) clamped to 0; an episode with nothing in
 * common with the goal (similarity 0) is not returned.
 */
import type { Episode, EpisodeStep, EpisodicMemory, SimilarTask } from '../arms/memory.js'
import type { Embedder } from '../llm/embedder.js'
import type { Sql } from './sql.js'
import { SqlVectorIndex, vectorLiteral } from './sql-vector-index.js'
import type { VectorIndex, VectorIndexKind } from './vector-index.js'

interface EpisodeRow {
  task_id: string
  goal: string
  steps: EpisodeStep[]
  outcome: string
  completed_at: Date
}

export class SqlEpisodicMemory implements EpisodicMemory {
  private readonly vectors: VectorIndex

  /** `vectors`: where the goals' vectors are kept and searched; default: in the rows (sql-vector-index.ts). */
  constructor(
    private readonly sql: Sql,
    readonly embedder: Embedder,
    vectors?: VectorIndex,
  ) {
    this.vectors = vectors ?? new SqlVectorIndex(sql, 'episodes')
  }

  vectorPath(): Promise<VectorIndexKind> {
    return this.vectors.kind()
  }

  async remember(tenant: string, episode: Episode, signal?: AbortSignal): Promise<void> {
    const [vector = []] = await this.embedder.embed([episode.goal], signal)
    signal?.throwIfAborted()
    const pg = (await this.vectorPath()) === 'pgvector'
    // The row first, then its point, in one transaction: a vector store that fails undoes the row.
    await this.sql.transaction(async (tx) => {
      const { rowCount } = await tx.query(
        `insert into episodes (task_id, tenant, goal, steps, outcome, completed_at, embedder, embedding${pg ? ', embedding_vec' : ''})
       values ($1, $8, $2, $3::jsonb, $4, $5, $6, $7::real[]${pg ? ', $9::vector' : ''})
       on conflict (task_id) do update set goal = excluded.goal, steps = excluded.steps, outcome = excluded.outcome,
         completed_at = excluded.completed_at, embedder = excluded.embedder, embedding = excluded.embedding
         ${pg ? ', embedding_vec = excluded.embedding_vec' : ''}
       where episodes.tenant = excluded.tenant`,
        [
          episode.task_id,
          episode.goal,
          JSON.stringify(episode.steps),
          episode.outcome,
          episode.completed_at,
          this.embedder.id,
          vector,
          tenant,
          ...(pg ? [vectorLiteral(vector)] : []),
        ],
      )
      // No row written (the id is another tenant's): no point either.
      if (rowCount > 0) await this.vectors.upsert([{ id: episode.task_id, tenant, embedder: this.embedder.id, vector }])
    })
  }

  deleteVectors(taskIds: readonly string[]): Promise<void> {
    return this.vectors.deleteIds(taskIds)
  }

  async deleteTenant(tenant: string): Promise<number> {
    // The points go before the rows' delete commits: a vector store that fails keeps both.
    return this.sql.transaction(async (tx) => {
      const { rowCount } = await tx.query('delete from episodes where tenant = $1', [tenant])
      await this.vectors.deleteTenant(tenant)
      return rowCount
    })
  }

  async similar(tenant: string, goal: string, k: number, signal?: AbortSignal): Promise<SimilarTask[]> {
    if (!Number.isInteger(k) || k < 1) throw new RangeError(`similar: k must be a positive integer, got ${k}`)
    const [vector = []] = await this.embedder.embed([goal], signal)
    if (!vector.some((x) => x !== 0)) return []
    signal?.throwIfAborted()
    const hits = await this.vectors.search(vector, k, 0, tenant, this.embedder.id)
    if (hits.length === 0) return []
    const { rows } = await this.sql.query<EpisodeRow & { similarity: number }>(
      `select e.task_id, e.goal, e.steps, e.outcome, e.completed_at, n.similarity
         from unnest($1::text[], $2::float8[]) as n(id, similarity) join episodes e on e.task_id = n.id
        where e.tenant = $3
        order by n.similarity desc, e.task_id`,
      [hits.map((h) => h.id), hits.map((h) => h.similarity), tenant],
    )
    return rows.map((r) => ({
      task_id: r.task_id,
      goal: r.goal,
      steps: r.steps,
      outcome: r.outcome,
      completed_at: r.completed_at.toISOString(),
      score: Math.min(1, Math.max(0, Number(r.similarity))),
    }))
  }
}
