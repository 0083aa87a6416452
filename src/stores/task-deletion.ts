/**
 * Deleting finished tasks: one by its owner's request, many by retention, all of one tenant by an
 * admin's erasure (docs/storage.md, "Retention and deletion").
 *
 * ```ts
 * const deletion = new TaskDeletion(sql)
 * await deletion.deleteFinished('acme', taskId)      // true: gone; false: missing, another tenant's or not finished
 * await deletion.expireFinished(30, 100)             // one batch: up to 100 tasks finished 30+ days ago
 * ```
 *
 * What hangs off a task goes with it, from this one place:
 * - its steps, its event log and its idempotency key, by the `on delete cascade` foreign keys of
 *   migrations/0001 (every table that references `tasks` must declare one);
 * - its episodic-memory entry (`episodes`, keyed by the task id without a foreign key, since memory
 *   may outlive or predate a task row), deleted here in the same transaction, with its vector
 *   where vectors live apart from the rows (Qdrant: `forgetVectors`, before the delete commits, so
 *   a vector store that fails keeps both).
 * Only final tasks are ever deleted: a task a worker may still act on is never taken from under it.
 */
import type { Sql } from './sql.js'
import { FINAL_STATUSES } from './task.js'
import { type TenantScope, tenantFilter } from './tenant.js'

interface Gone {
  task_id: string
  tenant: string
}

/** Removes the vectors of the episodes of these tasks where they are kept apart from the rows. */
export type ForgetVectors = (taskIds: readonly string[]) => Promise<void>

/** `memory`'s way of removing episode vectors, if it keeps them apart from the rows. */
export function forgetVectorsOf(memory: { deleteVectors?: ForgetVectors } | undefined): ForgetVectors | undefined {
  return memory?.deleteVectors?.bind(memory)
}

export class TaskDeletion {
  constructor(
    private readonly sql: Sql,
    private readonly forgetVectors?: ForgetVectors,
  ) {}

  /** Deletes one finished task of `tenant` and what hangs off it; false when there is no such finished task. */
  deleteFinished(tenant: TenantScope, taskId: string): Promise<boolean> {
    const params: unknown[] = [taskId, [...FINAL_STATUSES]]
    const where = `task_id = $1 and status = any($2::text[])${tenantFilter(tenant, 'tenant', params)}`
    return this.sql.transaction(async (tx) => {
      const { rows } = await tx.query<Gone>(`delete from tasks where ${where} returning task_id, tenant`, params)
      await this.forget(tx, rows)
      return rows.length > 0
    })
  }

  /**
   * One batch of a tenant's erasure: deletes up to `limit` finished tasks of `tenant` and what
   * hangs off them; how many tasks and episodic-memory entries went.
   */
  deleteFinishedOf(tenant: string, limit: number): Promise<{ tasks: number; episodes: number }> {
    return this.sql.transaction(async (tx) => {
      const { rows } = await tx.query<Gone>(
        `delete from tasks where task_id in (
           select task_id from tasks where tenant = $1 and status = any($2::text[]) limit $3 for update)
         returning task_id, tenant`,
        [tenant, [...FINAL_STATUSES], limit],
      )
      return { tasks: rows.length, episodes: await this.forget(tx, rows) }
    })
  }

  /**
   * One retention batch: deletes up to `limit` tasks that finished more than `days` days ago, the
   * oldest first, and what hangs off them; resolves with how many went. Rows another transaction
   * holds are skipped (a later batch takes them), so a batch never waits on a lock.
   */
  expireFinished(days: number, limit: number): Promise<number> {
    return this.sql.transaction(async (tx) => {
      const { rows } = await tx.query<Gone>(
        `delete from tasks where task_id in (
           select task_id from tasks
            -- the predicate of the partial index tasks_finished_at_idx (migrations/0015), word for word
            where status in ('completed','failed','cancelled','timed_out','rejected')
              and coalesce(completed_at, updated_at) < now() - $1::float8 * interval '1 day'
            order by coalesce(completed_at, updated_at)
            limit $2
            for update skip locked)
         returning task_id, tenant`,
        [days, limit],
      )
      await this.forget(tx, rows)
      return rows.length
    })
  }

  private async forget(tx: Sql, tasks: readonly Gone[]): Promise<number> {
    const n = await forgetEpisodes(tx, tasks)
    if (n > 0) await this.forgetVectors?.(tasks.map((t) => t.task_id))
    return n
  }
}

/**
 * Deletes the episodic-memory entries of deleted tasks and (`forget`) their vectors. Only when there are some: every delete on
 * `episodes` makes each process reload its copy of their vectors (migrations/0007), even one that
 * removes nothing.
 */
async function forgetEpisodes(tx: Sql, tasks: readonly Gone[]): Promise<number> {
  if (tasks.length === 0) return 0
  const ids = tasks.map((t) => t.task_id)
  const tenants = tasks.map((t) => t.tenant)
  const pairs = `select * from unnest($1::text[], $2::text[]) as gone(task_id, tenant)`
  const { rows } = await tx.query<{ n: number | string }>(
    `select count(*) as n from episodes e join (${pairs}) g on e.task_id = g.task_id and e.tenant = g.tenant`,
    [ids, tenants],
  )
  if (Number(rows[0]?.n ?? 0) === 0) return 0
  const { rowCount } = await tx.query(`delete from episodes e using (${pairs}) g where e.task_id = g.task_id and e.tenant = g.tenant`, [
    ids,
    tenants,
  ])
  return rowCount
}
