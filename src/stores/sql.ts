/**
 * The SQL port: the one way stores reach the relational database, PGlite or PostgreSQL alike.
 *
 * ```ts
 * const sql = await openSql({ dataDir: './data' })
 * await sql.transaction(async (tx) => {
 *   await tx.query('update tasks set status = $2 where task_id = $1', [id, 'running'])
 * })
 * ```
 *
 * Shaped like pg-boss's `IDatabase`: positional `$n` parameters, rows back. Parameters are passed
 * as the drivers take them; jsonb values are sent as JSON text with an explicit `::jsonb` cast,
 * because `pg` would turn a JS array into a PostgreSQL array literal.
 *
 * Deliberately left out: savepoints (a nested `transaction()` joins the outer one), streaming
 * cursors, LISTEN (task-event-notices.ts listens through `jobBackend`), and type parsers (callers convert `bigint`, which PGlite parses to a number
 * and `pg` leaves as a string, and timestamps, which both return as `Date`).
 */
export interface SqlResult<T> {
  rows: T[]
  /** Rows changed by INSERT/UPDATE/DELETE, rows returned by SELECT. */
  rowCount: number
}

export interface Sql {
  /** Which engine is underneath; for the rare statement that must differ, and for logs. */
  readonly dialect: 'pglite' | 'postgres'
  /** The schema every unqualified name resolves to (`search_path`). */
  readonly schema: string
  /**
   * How pg-boss and the event-stream listener reach the same database. The exception to "stores
   * know only this port": both must share PGlite's one connection, and on PostgreSQL each opens
   * connections of its own.
   */
  readonly jobBackend: JobBackend
  /** One statement, `$1`-style parameters. */
  query<T = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<SqlResult<T>>
  /** A script of several statements without parameters (migrations). */
  exec(script: string): Promise<void>
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. On PGlite
   * transactions are serialised (one connection); on PostgreSQL each gets its own pooled client.
   * Called on a transaction's own `tx`, it joins that transaction.
   */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>
  /** Closes the connections this adapter opened; a second call does nothing. A transaction's `tx` cannot be closed. */
  close(): Promise<void>
  /**
   * On an embedded database (PGlite, one connection in this process): whether statements of this
   * process are running or waiting, and still moving (one settled lately). A statement issued now
   * waits behind them, so how long it takes measures them, not the database's health. Absent on
   * PostgreSQL.
   */
  busy?(): boolean
}

/** The part of a PGlite instance pg-boss's `fromPglite` adapter uses. */
export interface PgliteHandle {
  query<T = unknown>(query: string, params?: unknown[]): Promise<{ rows: T[] }>
  exec(query: string): Promise<Array<{ rows: unknown[] }>>
  listen?(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>
}

export type JobBackend = { kind: 'pglite'; pglite: PgliteHandle } | { kind: 'postgres'; connectionString: string }

/** Schema names are interpolated into SQL (search_path, CREATE SCHEMA), so only plain identifiers pass. */
export function assertSchemaName(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new TypeError(`invalid schema name ${JSON.stringify(schema)}: use lower-case letters, digits and _`)
  }
  return schema
}
