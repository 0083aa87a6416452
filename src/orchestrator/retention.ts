/**
 * Forgets what only matters for a while: idempotency keys older than their window (24 h by
 * default, as payment APIs keep theirs) and, when TASK_RETENTION_DAYS is set, finished tasks older
 * than that with everything hanging off them (src/stores/task-deletion.ts). Unset or 0 keeps tasks
 * for good: they are the task history the spec asks the database to hold, and a deployment
 * decides itself when its history may go (docs/storage.md, "Retention and deletion").
 *
 * ```ts
 * const stop = startRetention(sql, log, { idempotencyKeyHours: 24, taskRetentionDays: 30 })
 * stop()
 * ```
 *
 * Every orchestrator process runs the same idempotent passes on a timer; several doing it at once
 * is harmless (a task batch skips rows another holds), and indexes keep each pass cheap. Tasks go in
 * batches, each its own short transaction, and a pass stops after a bounded number of them: a
 * backlog (retention just switched on over years of history) is worked off over several passes
 * without holding locks or the database for long.
 */
import type { Sql } from '../stores/sql.js'
import { type ForgetVectors, TaskDeletion } from '../stores/task-deletion.js'

export interface RetentionOptions {
  /** A replay after this long creates a new task. Default 24. */
  idempotencyKeyHours?: number
  /** Finished tasks older than this many days are deleted; 0 or unset keeps them. */
  taskRetentionDays?: number
  /** Tasks per batch (one transaction). Default 100. */
  taskBatchSize?: number
  /** Batches per pass. Default 50. */
  taskBatchesPerPass?: number
  /** Default 10 minutes. */
  intervalMs?: number
  /** Removes expired tasks' episode vectors kept apart from the rows (Qdrant). */
  forgetVectors?: ForgetVectors
}

interface RetentionLog {
  info(obj: object, msg?: string): void
  warn(obj: object, msg?: string): void
}

/** One pass; resolves with the number of keys removed. */
export async function pruneIdempotencyKeys(sql: Sql, olderThanHours: number): Promise<number> {
  const { rowCount } = await sql.query(`delete from idempotency_keys where created_at < now() - $1::float8 * interval '1 hour'`, [
    olderThanHours,
  ])
  return rowCount
}

/**
 * One pass over finished tasks older than `days`: batches of `batchSize` until one comes back short
 * or `maxBatches` ran. Resolves with the number of tasks deleted.
 */
export async function expireFinishedTasks(
  sql: Sql,
  days: number,
  batchSize = 100,
  maxBatches = 50,
  forgetVectors?: ForgetVectors,
): Promise<number> {
  if (!(days > 0)) return 0
  const deletion = new TaskDeletion(sql, forgetVectors)
  let total = 0
  for (let i = 0; i < maxBatches; i++) {
    const n = await deletion.expireFinished(days, batchSize)
    total += n
    if (n < batchSize) break
  }
  return total
}

export function startRetention(sql: Sql, log: RetentionLog, options: RetentionOptions = {}): () => void {
  const hours = options.idempotencyKeyHours ?? 24
  const days = options.taskRetentionDays ?? 0
  let running = false
  const pass = async (): Promise<void> => {
    await pruneIdempotencyKeys(sql, hours).catch((err: unknown) => log.warn({ err }, 'idempotency key retention pass failed'))
    if (days <= 0) return
    try {
      const deleted = await expireFinishedTasks(sql, days, options.taskBatchSize, options.taskBatchesPerPass, options.forgetVectors)
      if (deleted > 0) log.info({ deleted, retention_days: days }, 'expired finished tasks')
    } catch (err) {
      log.warn({ err }, 'task retention pass failed')
    }
  }
  // A pass still working when the next is due (a large backlog) is not joined by a second one.
  const timer = setInterval(
    () => {
      if (running) return
      running = true
      void pass().finally(() => {
        running = false
      })
    },
    options.intervalMs ?? 10 * 60_000,
  )
  timer.unref()
  return () => clearInterval(timer)
}
