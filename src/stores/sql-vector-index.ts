/**
 * The vector index in the rows themselves: pgvector's `<=>` when the table has its column, else an
 * in-memory copy of the `real[]` column (vector-scan.ts for chunks, episode-scan.ts for episodes),
 * else, while the copy loads or when it would be too large, `real[]` compared in SQL.
 *
 * ```ts
 * const index = new SqlVectorIndex(sql, 'knowledge_chunks')
 * await index.kind() // 'pgvector' | 'array'
 * ```
 *
 * The store writes the vectors with the rows and deleting a row removes its vector, so `upsert`
 * and the deletes are no-ops here.
 */
import { EpisodeScan } from './episode-scan.js'
import type { Sql } from './sql.js'
import { ANY_TENANT, type TenantScope } from './tenant.js'
import type { VectorHit, VectorIndex } from './vector-index.js'
import { type VectorCopies, type VectorCopy, VectorScan } from './vector-scan.js'

export type VectorPath = 'pgvector' | 'array'

/** The tables with vectors, and their id columns: the only identifiers the vector SQL interpolates. */
export type VectorTable = 'knowledge_chunks' | 'episodes'
export type VectorIdColumn = 'chunk_id' | 'task_id'

/** `pgvector` when `table` has the `embedding_vec` column migration 0005 adds with pgvector. */
export async function detectVectorPath(sql: Sql, table: VectorTable): Promise<VectorPath> {
  const { rows } = await sql.query(
    `select 1 from information_schema.columns where table_schema = $1 and table_name = $2 and column_name = 'embedding_vec'`,
    [sql.schema, table],
  )
  return rows.length > 0 ? 'pgvector' : 'array'
}

/** The text form pgvector parses, or null for a zero vector (its cosine distance is NaN). */
export function vectorLiteral(v: readonly number[]): string | null {
  return v.some((x) => x !== 0) ? `[${v.join(',')}]` : null
}

/**
 * Ids (`idColumn` as `id`) and similarity of the `$3` nearest rows of `table` to the vector `$1`
 * among rows of embedder `$2` (and of tenant `$5`, unless `tenant` is `ANY_TENANT`) with
 * similarity above `$4`, best first. `$1` is the vector's text form on the pgvector path, a
 * number[] on the array path. Vectors are stored at unit length, so the dot product is the cosine.
 */
export function nearestSql(path: VectorPath, table: VectorTable, idColumn: VectorIdColumn, tenant: TenantScope): string {
  const scoped = tenant === ANY_TENANT ? '' : ' and t.tenant = $5'
  if (path === 'pgvector') {
    return `select t.${idColumn} as id, 1 - (t.embedding_vec <=> $1::vector) as similarity from ${table} t
      where t.embedder = $2${scoped} and t.embedding_vec is not null and 1 - (t.embedding_vec <=> $1::vector) > $4
      order by t.embedding_vec <=> $1::vector, t.${idColumn} limit $3`
  }
  return `select t.${idColumn} as id, s.similarity from ${table} t
    cross join lateral (select sum(a::float8 * b::float8) as similarity from unnest(t.embedding, $1::real[]) as u(a, b)) s
    where t.embedder = $2${scoped} and s.similarity > $4
    order by s.similarity desc, t.${idColumn} limit $3`
}

/** The parameters of `nearestSql` for `path`: the vector, the embedder, k, the least similarity and the tenant. */
export function nearestParams(
  path: VectorPath,
  v: readonly number[],
  embedder: string,
  k: number,
  min: number,
  tenant: TenantScope,
): unknown[] {
  const params = [path === 'pgvector' ? vectorLiteral(v) : v, embedder, k, min]
  return tenant === ANY_TENANT ? params : [...params, tenant]
}

export class SqlVectorIndex implements VectorIndex {
  // Found on first use, so construction stays synchronous for the composition root.
  private path: Promise<VectorPath> | undefined
  private readonly scan: VectorCopies<VectorCopy>

  constructor(
    private readonly sql: Sql,
    private readonly table: VectorTable,
  ) {
    this.scan = table === 'episodes' ? new EpisodeScan(sql) : new VectorScan(sql)
  }

  kind(): Promise<VectorPath> {
    return (this.path ??= detectVectorPath(this.sql, this.table).catch((err: unknown) => {
      this.path = undefined // a failed probe (database down) is tried again next time
      throw err
    }))
  }

  async upsert(): Promise<void> {}
  async deleteIds(): Promise<void> {}
  async deleteDocument(): Promise<void> {}
  async deleteTenant(): Promise<void> {}

  async search(vector: readonly number[], k: number, min: number, tenant: TenantScope, embedder: string): Promise<VectorHit[]> {
    const path = await this.kind()
    if (path === 'array') {
      const hits = await this.scan.nearest(tenant, embedder, vector, k, min)
      if (hits !== null) return hits
    }
    const idColumn = this.table === 'episodes' ? 'task_id' : 'chunk_id'
    const { rows } = await this.sql.query<VectorHit>(
      nearestSql(path, this.table, idColumn, tenant),
      nearestParams(path, vector, embedder, k, min, tenant),
    )
    return rows.map((r) => ({ id: r.id, similarity: Number(r.similarity) }))
  }

  async check(): Promise<{ ok: boolean; detail: string }> {
    try {
      return { ok: true, detail: await this.kind() }
    } catch (err) {
      return { ok: false, detail: err instanceof Error ? err.message : String(err) }
    }
  }
}
