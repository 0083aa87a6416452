/**
 * Nearest knowledge chunks by a scan of an in-memory copy, for servers without pgvector: the `real[]`
 * column compared in SQL costs ~150 µs a row (3 s at 20,000 chunks), the same dot products over
 * a Float32Array well under 1 µs a row.
 *
 * ```ts
 * const scan = new VectorScan(sql)
 * await scan.nearest('acme', 'hashing-384-v1', queryVector, 50, 0.1) // [{ id, similarity }…] best first, or null
 * ```
 *
 * The copy is of one embedder's rows of every tenant, each row with its tenant; a search compares
 * the query with the rows of its tenant only (`ANY_TENANT`: all of them), checking the tenant
 * before any arithmetic, so another tenant's rows cost one comparison each.
 * The copy is reloaded whole when the table's version (migration 0006,
 * bumped by every changing statement, whoever ran it) has moved since it was read: each search
 * costs one small query, and a process sees another's ingest or delete at its next search. A
 * reload reads every vector (seconds at 20,000 chunks), so while the copy is missing or stale
 * `nearest` answers null at once (the caller asks SQL) and the reload runs in the background;
 * `{ wait: true }` waits for it instead. Above `maxFloats` numbers it is always null.
 *
 * The result is the SQL path's: the query is rounded to `real` as `$1::real[]` rounds it, each
 * product and the running sum are in double precision in the same order, rows above `min` only,
 * ties broken by id (byte order).
 */
import type { Sql } from './sql.js'
import { ANY_TENANT, type TenantScope } from './tenant.js'

/** 16 M numbers: 64 MiB, e.g. 40,000 chunks of 384 dimensions. */
export const MAX_FLOATS = 16 * 1024 * 1024

/** One embedder's rows in memory: `ids[i]` names `vectors[i]`, which belongs to `tenants[i]`. */
export interface VectorCopy {
  ids: string[]
  tenants: string[]
  vectors: Float32Array[]
}

/**
 * A copy of some rows' vectors per embedder, searched by `topK`; each subclass keeps its copy
 * current its own way (`current`) and loads it through `loadOnce(this.loading, …)`.
 */
export abstract class VectorCopies<C extends VectorCopy> {
  protected readonly copies = new Map<string, C>()
  protected readonly loading = new Map<string, Promise<C | null>>()

  constructor(
    protected readonly sql: Sql,
    protected readonly maxFloats = MAX_FLOATS,
  ) {}

  /**
   * The `k` rows of `tenant` and `embedder` most similar to `vector` (above `min`), best first;
   * null while the copy is being (re)loaded, unless `wait`, and when there are too many numbers to hold.
   */
  async nearest(
    tenant: TenantScope,
    embedder: string,
    vector: readonly number[],
    k: number,
    min: number,
    opts: { wait?: boolean } = {},
  ): Promise<Array<{ id: string; similarity: number }> | null> {
    const copy = await this.current(embedder, opts.wait ?? false)
    if (copy === null) return null
    return topK(copy.ids, copy.vectors, vector, k, min, tenant === ANY_TENANT ? undefined : (i) => copy.tenants[i] === tenant)
  }

  /** The embedder's copy as of now; null (unless `wait`) while it loads. */
  protected abstract current(embedder: string, wait: boolean): Promise<C | null>
}

interface Copy extends VectorCopy {
  version: string
}

/** Knowledge chunks only: episodes change too often for whole reloads (episode-scan.ts). */
export class VectorScan extends VectorCopies<Copy> {
  protected async current(embedder: string, wait: boolean): Promise<Copy | null> {
    const { rows } = await this.sql.query<{ version: string }>(
      "select version::text as version from vector_versions where table_name = 'knowledge_chunks'",
    )
    const version = rows[0]?.version ?? 'none'
    const held = this.copies.get(embedder)
    if (held?.version === version) return held
    return loadOnce(this.loading, embedder, () => this.load(embedder, version), wait)
  }

  private async load(embedder: string, version: string): Promise<Copy | null> {
    const { rows: size } = await this.sql.query<{ floats: string | null }>(
      'select sum(cardinality(embedding))::text as floats from knowledge_chunks where embedder = $1',
      [embedder],
    )
    if (Number(size[0]?.floats ?? 0) > this.maxFloats) {
      this.copies.delete(embedder)
      return null
    }
    const { rows } = await this.sql.query<{ id: string; tenant: string; embedding: number[] }>(
      'select chunk_id as id, tenant, embedding from knowledge_chunks where embedder = $1',
      [embedder],
    )
    // Read after the version: a change committed in between is in these rows and moves the
    // version again, so the next search reloads once more; never a stale copy under a new version.
    const copy = {
      version,
      ids: rows.map((r) => r.id),
      tenants: rows.map((r) => r.tenant),
      vectors: rows.map((r) => Float32Array.from(r.embedding.map(Number))),
    }
    this.copies.set(embedder, copy)
    return copy
  }
}

/**
 * One load per key at a time (`loading` holds the ones in flight). With `wait`, the load's result;
 * otherwise null at once while it runs on, and a failed load is tried again by the next caller.
 */
export function loadOnce<T>(
  loading: Map<string, Promise<T | null>>,
  key: string,
  load: () => Promise<T | null>,
  wait: boolean,
): Promise<T | null> | null {
  let pending = loading.get(key)
  if (pending === undefined) {
    pending = load().finally(() => loading.delete(key))
    loading.set(key, pending)
  }
  if (wait) return pending
  pending.catch(() => {})
  return null
}

/**
 * The `k` of `vectors` (named by `ids`, same order) most similar to `vector` above `min`, best
 * first, as the SQL path would answer (see the header). With `keep`, only the rows it keeps (by
 * index) are compared at all.
 */
export function topK(
  ids: readonly string[],
  vectors: readonly Float32Array[],
  vector: readonly number[],
  k: number,
  min: number,
  keep?: (i: number) => boolean,
): Array<{ id: string; similarity: number }> {
  const query = Float32Array.from(vector)
  // The best k so far, best first: a row enters only when it beats the k-th.
  const best: Array<{ id: string; similarity: number }> = []
  for (let i = 0; i < vectors.length; i++) {
    if (keep !== undefined && !keep(i)) continue
    const row = vectors[i]!
    const n = Math.min(row.length, query.length)
    let sum = 0
    for (let j = 0; j < n; j++) sum += row[j]! * query[j]!
    if (sum <= min) continue
    const hit = { id: ids[i]!, similarity: sum }
    if (best.length === k && !before(hit, best[k - 1]!)) continue
    let at = best.length
    while (at > 0 && before(hit, best[at - 1]!)) at--
    best.splice(at, 0, hit)
    if (best.length > k) best.pop()
  }
  return best
}

/** Higher similarity first, then the smaller id (byte order), as the SQL orders them. */
function before(a: { id: string; similarity: number }, b: { id: string; similarity: number }): boolean {
  return a.similarity > b.similarity || (a.similarity === b.similarity && a.id < b.id)
}
