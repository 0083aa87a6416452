import { loadOnce, VectorCopies, type VectorCopy } from './vector-scan.js'

interface Copy extends VectorCopy {
  /** `vector_versions.version` of episodes when loaded: it moves only when rows are removed. */
  removals: string
  /** Rows written by this transaction or later are read again at the next search. */
  xmin: string
  index: Map<string, number>
  floats: number
}

interface Head {
  xmin: string
  removals: string | null
}

type Row = Head & { id: string | null; tenant: string | null; embedder?: string | null; embedding: number[] | null }

export class EpisodeScan extends VectorCopies<Copy> {
  /** One catch-up at a time per embedder, in call order: results applied out of order could undo a newer write. */
  private readonly syncing = new Map<string, Promise<unknown>>()

  protected async current(embedder: string, wait: boolean): Promise<Copy | null> {
    if (this.copies.has(embedder)) {
      const previous = this.syncing.get(embedder) ?? Promise.resolve()
      const next = previous.catch(() => {}).then(() => this.catchUp(embedder))
      this.syncing.set(embedder, next)
      const copy = await next
      if (copy !== null) return copy
    }
    return loadOnce(this.loading, embedder, () => this.load(embedder), wait)
  }

  /** The copy with the rows written since its last read applied; null when it must be reloaded. */
  private async catchUp(embedder: string): Promise<Copy | null> {
    const copy = this.copies.get(embedder)
    if (copy === undefined) return null
    const { rows } = await this.sql.query<Row>(
      `with s as (${HEAD})
       select s.xmin, s.removals, e.task_id as id, e.tenant, e.embedder, e.embedding
         from s left join episodes e on e.changed_xid >= $1::xid8`,
      [copy.xmin],
    )
    const head = rows[0]
    if (head === undefined || head.removals !== copy.removals || this.copies.get(embedder) !== copy) {
      this.copies.delete(embedder)
      return null
    }
    for (const row of rows) {
      if (row.id === null) continue
      if (row.embedder === embedder && row.embedding !== null)
        put(copy, row.id, row.tenant ?? '', Float32Array.from(row.embedding.map(Number)))
      else remove(copy, row.id) // now another embedder's: no longer compared
    }
    copy.xmin = head.xmin
    if (copy.floats > this.maxFloats) {
      this.copies.delete(embedder)
      return null
    }
    return copy
  }

  private async load(embedder: string): Promise<Copy | null> {
    // One statement, one snapshot: the rows, the xmin the next catch-up starts from and the version.
    const { rows } = await this.sql.query<Row & { floats: string }>(
      `with s as (${HEAD}),
            size as (select coalesce(sum(cardinality(embedding)), 0)::text as floats from episodes where embedder = $1)
       select s.xmin, s.removals, size.floats, e.task_id as id, e.tenant, e.embedding
         from s cross join size left join episodes e on e.embedder = $1 and size.floats::bigint <= $2`,
      [embedder, this.maxFloats],
    )
    const head = rows[0]
    if (head === undefined || Number(head.floats) > this.maxFloats) {
      this.copies.delete(embedder)
      return null
    }
    const copy: Copy = {
      removals: head.removals ?? 'none',
      xmin: head.xmin,
      index: new Map(),
      ids: [],
      tenants: [],
      vectors: [],
      floats: 0,
    }
    for (const row of rows) {
      if (row.id !== null && row.embedding !== null) put(copy, row.id, row.tenant ?? '', Float32Array.from(row.embedding.map(Number)))
    }
    this.copies.set(embedder, copy)
    return copy
  }
}

/** The snapshot's xmin and the removal version, read in the statement that reads the rows. */
const HEAD = `select pg_snapshot_xmin(pg_current_snapshot())::text as xmin,
  coalesce((select version::text from vector_versions where table_name = 'episodes'), 'none') as removals`

function put(copy: Copy, id: string, tenant: string, vector: Float32Array): void {
  const at = copy.index.get(id)
  if (at === undefined) {
    copy.index.set(id, copy.ids.length)
    copy.ids.push(id)
    copy.tenants.push(tenant)
    copy.vectors.push(vector)
  } else {
    copy.floats -= copy.vectors[at]!.length
    copy.tenants[at] = tenant
    copy.vectors[at] = vector
  }
  copy.floats += vector.length
}

function remove(copy: Copy, id: string): void {
  const at = copy.index.get(id)
  if (at === undefined) return
  const last = copy.ids.length - 1
  copy.floats -= copy.vectors[at]!.length
  // The last row fills the hole: order does not matter, `topK` breaks ties by id.
  copy.ids[at] = copy.ids[last]!
  copy.tenants[at] = copy.tenants[last]!
  copy.vectors[at] = copy.vectors[last]!
  copy.index.set(copy.ids[at]!, at)
  copy.ids.pop()
  copy.tenants.pop()
  copy.vectors.pop()
  copy.index.delete(id)
}
