/**
 * Forgets what only matters for a while: idempotency keys older than their window (24 h by
 * default, as payment APIs keep theirs). Tasks and their event logs are kept: they are the task
 * history the spec asks the database to hold.
 *
 * ```ts
 * const stop = startRetention(sql, log, { idempotencyKeyHours: 24 })
 * stop()
 * ```
 *
 * Every orchestrator process runs the same idempotent DELETE on a timer; several doing it at once
 * is harmless, and the created_at index keeps it cheap.
 */
import type { Sql } from '../stores/sql.js'

export interface RetentionOptions {
  /** A replay after this long creates a new task. Default 24. */
  idempotencyKeyHours?: number
  /** Default 10 minutes. */
  intervalMs?: number
}

interface WarnLog {
  warn(obj: object, msg?: string): void
}

/** One pass; resolves with the number of keys removed. */
export async function pruneIdempotencyKeys(sql: Sql, olderThanHours: number): Promise<number> {
  const { rowCount } = await sql.query(`delete from idempotency_keys where created_at < now() - $1::float8 * interval '1 hour'`, [
    olderThanHours,
  ])
  return rowCount
}

export function startRetention(sql: Sql, log: WarnLog, options: RetentionOptions = {}): () => void {
  const hours = options.idempotencyKeyHours ?? 24
  const timer = setInterval(
    () => {
      pruneIdempotencyKeys(sql, hours).catch((err: unknown) => log.warn({ err }, 'idempotency key retention pass failed'))
    },
    options.intervalMs ?? 10 * 60_000,
  )
  timer.unref()
  return () => clearInterval(timer)
}
