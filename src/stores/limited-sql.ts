/**
 * A `Sql` that lets at most `limit` statements or transactions of its callers run at once; the rest
 * wait in order. The task runner gets one so it never holds more than its share of the shared
 * pool: with 4 task and 16 step workers it could otherwise fill all 10 connections, and the API's
 * submission batches would queue behind it.
 *
 * ```ts
 * const runnerSql = limitSql(sql, 3)   // same database, same pool, at most 3 connections at a time
 * const runnerStore = new SqlTaskStore(runnerSql)
 * limitSql(sql, () => (apiBusy() ? 2 : 8)) // a limit read at every acquire and release
 * ```
 *
 * A transaction's `tx` is the underlying one: statements inside it use the permit the transaction
 * holds, so nesting cannot deadlock. `close()` closes nothing (the underlying `Sql` is shared).
 */
import type { Sql, SqlResult } from './sql.js'

/**
 * `sql` with `use()` called as each statement, script or transaction of its callers starts: how
 * the service tells the runner's share (`limitSql` with a function) that the API is busy.
 */
export function onUse(sql: Sql, use: () => void): Sql {
  return {
    dialect: sql.dialect,
    schema: sql.schema,
    jobBackend: sql.jobBackend,
    query: <T = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<SqlResult<T>> => {
      use()
      return sql.query<T>(text, params)
    },
    exec: (script: string) => {
      use()
      return sql.exec(script)
    },
    transaction: <T>(fn: (tx: Sql) => Promise<T>): Promise<T> => {
      use()
      return sql.transaction(fn)
    },
    close: () => sql.close(),
  }
}

export function limitSql(sql: Sql, limit: number | (() => number)): Sql {
  const limitNow = typeof limit === 'number' ? () => limit : limit
  let running = 0
  const waiting: Array<() => void> = []
  // Wakes waiters, first come first served, while the limit (which may have grown) allows.
  const drain = (): void => {
    while (waiting.length > 0 && running < limitNow()) {
      running++
      waiting.shift()!()
    }
  }
  const acquire = async (): Promise<void> => {
    if (waiting.length === 0 && running < limitNow()) {
      running++
      return
    }
    await new Promise<void>((resolve) => {
      waiting.push(resolve)
      drain()
    })
  }
  const release = (): void => {
    running--
    drain()
  }
  const limited = async <T>(fn: () => Promise<T>): Promise<T> => {
    await acquire()
    try {
      return await fn()
    } finally {
      release()
    }
  }
  return {
    dialect: sql.dialect,
    schema: sql.schema,
    jobBackend: sql.jobBackend,
    query: <T = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<SqlResult<T>> =>
      limited(() => sql.query<T>(text, params)),
    exec: (script: string) => limited(() => sql.exec(script)),
    transaction: <T>(fn: (tx: Sql) => Promise<T>): Promise<T> => limited(() => sql.transaction(fn)),
    close: async () => {},
  }
}
