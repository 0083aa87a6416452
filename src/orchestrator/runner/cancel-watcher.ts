/**
 * Reaches steps this process runs when the stop came from elsewhere: another process took the
 * DELETE (task `cancelling`), a timeout job ran there (task final), or the deadline passed before
 * any timeout job fired. One query per tick, for all local tasks at once.
 */
import type { Sql } from '../../stores/sql.js'
import type { TaskStatus } from '../../stores/task.js'
import type { AbortKind, AbortRegistry } from './abort-registry.js'

export interface WatcherLog {
  warn(obj: object, msg?: string): void
}

export function startCancelWatcher(sql: Sql, registry: AbortRegistry, intervalMs: number, log: WatcherLog): () => void {
  let busy = false
  const tick = async (): Promise<void> => {
    const ids = registry.taskIds()
    if (busy || ids.length === 0) return
    busy = true
    try {
      const { rows } = await sql.query<{ task_id: string; status: TaskStatus; overdue: boolean }>(
        `select task_id, status, coalesce(deadline_at <= now(), false) as overdue
           from tasks where task_id = any($1::text[])
            and (status not in ('planning', 'running') or deadline_at <= now())`,
        [ids],
      )
      for (const row of rows) registry.abort(row.task_id, kindFor(row.status, row.overdue))
    } catch (err) {
      log.warn({ err }, 'cancel watcher query failed')
    } finally {
      busy = false
    }
  }
  const timer = setInterval(() => void tick(), intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}

function kindFor(status: TaskStatus, overdue: boolean): AbortKind {
  if (status === 'cancelling' || status === 'cancelled') return 'cancelled'
  if (status === 'timed_out' || overdue) return 'timed_out'
  return 'cancelled' // completed/failed/rejected by someone else: stop, nothing here can matter
}
