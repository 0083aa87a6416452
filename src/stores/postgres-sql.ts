/**
 * The SQL port on PostgreSQL through a `pg` pool this adapter owns.
 *
 * ```ts
 * const sql = await PostgresSql.open({ connectionString: process.env.DATABASE_URL!, schema: 'ganglion' })
 * ```
 *
 * Loaded only through `openSql` when `DATABASE_URL` is set, so the embedded mode never imports `pg`.
 * Transactions run at READ COMMITTED on one pooled client each; the stores' conditional updates and
 * row locks are written for that level.
 */
import pg from 'pg'
import { assertSchemaName, type JobBackend, type Sql, type SqlResult } from './sql.js'

export interface PostgresSqlOptions {
  connectionString: string
  /** Schema for every unqualified name (set as `search_path` on each connection). Default `public`. */
  schema?: string
  /** Pool size. Default 10. */
  max?: number
}

type Client = pg.Pool | pg.PoolClient

async function run<T>(client: Client, text: string, params?: readonly unknown[]): Promise<SqlResult<T>> {
  const res = await client.query(text, params ? [...params] : undefined)
  return { rows: res.rows as T[], rowCount: res.rowCount ?? res.rows.length }
}

class PostgresTxSql implements Sql {
  readonly dialect = 'postgres' as const
  constructor(
    private readonly client: pg.PoolClient,
    readonly schema: string,
    readonly jobBackend: JobBackend,
  ) {}
  query<T>(text: string, params?: readonly unknown[]): Promise<SqlResult<T>> {
    return run<T>(this.client, text, params)
  }
  async exec(script: string): Promise<void> {
    await this.client.query(script)
  }
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    return fn(this)
  }
  close(): Promise<void> {
    return Promise.reject(new Error('close() called on a transaction'))
  }
}

export class PostgresSql implements Sql {
  readonly dialect = 'postgres' as const
  readonly jobBackend: JobBackend

  private constructor(
    private readonly pool: pg.Pool,
    readonly schema: string,
    connectionString: string,
  ) {
    this.jobBackend = { kind: 'postgres', connectionString }
  }

  static async open(options: PostgresSqlOptions): Promise<PostgresSql> {
    const schema = assertSchemaName(options.schema ?? 'public')
    const pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.max ?? 10,
      // public stays on the path for extensions installed there (pgvector's types).
      options: `-c search_path=${schema},public`,
    })
    // An idle client's error (server restart) would otherwise crash the process; the next query reconnects.
    pool.on('error', () => {})
    const sql = new PostgresSql(pool, schema, options.connectionString)
    try {
      await sql.query('select 1')
    } catch (err) {
      await pool.end()
      throw err
    }
    return sql
  }

  query<T>(text: string, params?: readonly unknown[]): Promise<SqlResult<T>> {
    return run<T>(this.pool, text, params)
  }

  async exec(script: string): Promise<void> {
    await this.pool.query(script)
  }

  async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    const client = await this.pool.connect()
    let broken: Error | undefined
    // A checked-out client has no pool listener: the server ending the connection between two
    // queries (a shutdown) would be an 'error' event nobody hears, and crash the process. The next
    // query fails instead, and the client is not handed out again.
    const dropped = (err: Error): void => {
      broken = err
    }
    client.on('error', dropped)
    try {
      await client.query('begin')
      const result = await fn(new PostgresTxSql(client, this.schema, this.jobBackend))
      await client.query('commit')
      return result
    } catch (err) {
      await client.query('rollback').catch((rollbackErr: Error) => {
        broken = rollbackErr // a client that cannot roll back is not handed out again
      })
      throw err
    } finally {
      client.off('error', dropped)
      client.release(broken)
    }
  }

  /** Ends the pool; again: nothing more (as PGlite's). */
  async close(): Promise<void> {
    if (!this.pool.ended) await this.pool.end()
  }
}
