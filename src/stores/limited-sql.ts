/**
 * A `Sql` that lets at most `limit` statements or transactions of its callers run at once; the rest
 * wait in order. The task runner gets one so it never holds more than its share of the shared
 * pool: with 4 task and 16 step workers it could otherwise fill all 10 connections, and the API's
 * submission batches would queue behind it.
 *
 * ```ts
 * const runnerSql = limitSql(sql, 3)   // same database, same pool, at most 3 connections at a time
 * const runnerStore = new SqlTaskStore(runnerSql)
 * ```
 *
 * A transaction's `tx` is the underlying one: statements inside it use the permit the transaction
 * holds, so nesting cannot deadlock. `close()` closes nothing (the underlying `Sql` is shared).
 */
import type { Sql, SqlResult } from './sql.js';

export function limitSql(sql: Sql, limit: number): Sql {
  let running = 0;
  const waiting: Array<() => void> = [];
  const acquire = async (): Promise<void> => {
    if (running < limit) {
      running++;
      return;
    }
    // The releaser hands its permit over: `running` stays as it is.
    await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  const limited = async <T>(fn: () => Promise<T>): Promise<T> => {
    await acquire();
    try {
      return await fn();
    } finally {
      release();
    }
  };
  return {
    dialect: sql.dialect,
    schema: sql.schema,
    jobBackend: sql.jobBackend,
    query: <T = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<SqlResult<T>> =>
      limited(() => sql.query<T>(text, params)),
    exec: (script: string) => limited(() => sql.exec(script)),
    transaction: <T>(fn: (tx: Sql) => Promise<T>): Promise<T> => limited(() => sql.transaction(fn)),
    close: async () => {},
  };
}
