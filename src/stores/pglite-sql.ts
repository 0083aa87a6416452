/**
 * The SQL port on PGlite: PostgreSQL compiled to WASM, in this process, with pgvector loaded.
 *
 * ```ts
 * const sql = await PgliteSql.open({ dataDir: './data/pglite' }) // or no dataDir: in memory
 * ```
 *
 * PGlite has exactly one connection. Its own `transaction()` holds a lock that every other query
 * waits for, so transactions are serialised and a query outside the transaction can never slip
 * into it. The flip side: code inside `transaction(fn)` must use `tx`, never the outer `Sql`, or it
 * waits for itself forever.
 */
import { mkdir } from 'node:fs/promises'
import { PGlite, type Transaction } from '@electric-sql/pglite'
import { vector } from '@electric-sql/pglite-pgvector'
import { assertSchemaName, type JobBackend, type Sql, type SqlResult } from './sql.js'

export interface PgliteSqlOptions {
  /** A directory for the database files; omitted, the database lives in memory (tests). */
  dataDir?: string
  /** Schema for every unqualified name; created when missing. Default `public`. */
  schema?: string
  /**
   * How long the adapter may go without settling a statement and still call itself busy
   * (`busy()`), in milliseconds. Past it, statements that are still pending are stuck (a
   * transaction held open by work that never ends), not a queue, and a health probe behind them
   * reads the database down. Default 30 s.
   */
  stallMs?: number
}

const DEFAULT_STALL_MS = 30_000

type Queryable = Pick<PGlite, 'query' | 'exec'> | Transaction

async function run<T>(db: Queryable, text: string, params?: readonly unknown[]): Promise<SqlResult<T>> {
  // PGlite answers on this thread, through promises that settle as microtasks: a run of queries
  // (a task's steps, a batch of events) would hold the event loop from the first to the last, and
  // no request, /api/v1/health included, would be answered in between. One turn of the loop
  // before each statement lets waiting requests in.
  await new Promise<void>((resolve) => setImmediate(resolve))
  const res = await db.query<T>(text, params ? [...params] : undefined)
  // PGlite reports affectedRows for DML and 0 for a SELECT.
  return { rows: res.rows, rowCount: res.affectedRows || res.rows.length }
}

class PgliteTxSql implements Sql {
  readonly dialect = 'pglite' as const
  constructor(
    private readonly tx: Transaction,
    readonly schema: string,
    readonly jobBackend: JobBackend,
  ) {}
  query<T>(text: string, params?: readonly unknown[]): Promise<SqlResult<T>> {
    return run<T>(this.tx, text, params)
  }
  async exec(script: string): Promise<void> {
    await this.tx.exec(script)
  }
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    return fn(this)
  }
  close(): Promise<void> {
    return Promise.reject(new Error('close() called on a transaction'))
  }
}

export class PgliteSql implements Sql {
  readonly dialect = 'pglite' as const
  readonly jobBackend: JobBackend
  /** Statements and transactions issued through this adapter and not yet settled. */
  private pending = 0
  /** When a statement last settled, or the first of a run of pending ones was issued. */
  private progressAt = 0

  private constructor(
    private readonly db: PGlite,
    readonly schema: string,
    private readonly stallMs: number,
  ) {
    this.jobBackend = { kind: 'pglite', pglite: db }
  }

  static async open(options: PgliteSqlOptions = {}): Promise<PgliteSql> {
    const schema = assertSchemaName(options.schema ?? 'public')
    // PGlite creates its own directory but not the ones above it (a fresh DATA_DIR=./data).
    if (options.dataDir !== undefined) await mkdir(options.dataDir, { recursive: true })
    const db = await PGlite.create(options.dataDir ?? 'memory://', { extensions: { vector } })
    // One session for the life of the instance, so a session-level search_path holds for every query.
    await db.exec(`create schema if not exists "${schema}"; set search_path to "${schema}", public`)
    return new PgliteSql(db, schema, options.stallMs ?? DEFAULT_STALL_MS)
  }

  query<T>(text: string, params?: readonly unknown[]): Promise<SqlResult<T>> {
    return this.counted(() => run<T>(this.db, text, params))
  }

  exec(script: string): Promise<void> {
    return this.counted(async () => {
      await this.db.exec(script)
    })
  }

  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    return this.counted(() => this.db.transaction((tx) => fn(new PgliteTxSql(tx, this.schema, this.jobBackend))))
  }

  /** Statements are pending and one settled (or the first was issued) within `stallMs`. */
  busy(): boolean {
    return this.pending > 0 && performance.now() - this.progressAt < this.stallMs
  }

  async close(): Promise<void> {
    if (!this.db.closed) await this.db.close()
  }

  private async counted<T>(work: () => Promise<T>): Promise<T> {
    if (this.pending++ === 0) this.progressAt = performance.now()
    try {
      return await work()
    } finally {
      this.pending--
      this.progressAt = performance.now()
    }
  }
}
