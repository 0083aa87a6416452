/**
 * Picks the SQL adapter from configuration and brings the schema up to date.
 *
 * ```ts
 * const sql = await openSql({ databaseUrl: process.env.DATABASE_URL, dataDir: './data' })
 * ```
 *
 * `databaseUrl` set → PostgreSQL through `pg`; unset → PGlite under `<dataDir>/pglite`. Each driver is
 * imported only when chosen, so the embedded mode never loads `pg` and the server mode never loads
 * the PGlite WASM.
 */
import { join } from 'node:path'
import { migrate } from './migrate.js'
import type { Sql } from './sql.js'

export interface OpenSqlConfig {
  /** `postgres://…`; unset means the embedded PGlite. */
  databaseUrl?: string | undefined
  /** Data directory of the embedded database (`DATA_DIR`). `memory://` keeps it in memory. */
  dataDir: string
  /** Schema for the service's tables. Default `public`. */
  schema?: string
  /** PostgreSQL pool size. */
  poolSize?: number
  /** Run pending migrations before returning. Default true. */
  migrate?: boolean
}

export async function openSql(config: OpenSqlConfig): Promise<Sql> {
  let sql: Sql
  if (config.databaseUrl) {
    const { PostgresSql } = await import('./postgres-sql.js')
    sql = await PostgresSql.open({
      connectionString: config.databaseUrl,
      ...(config.schema !== undefined && { schema: config.schema }),
      ...(config.poolSize !== undefined && { max: config.poolSize }),
    })
  } else {
    const { PgliteSql } = await import('./pglite-sql.js')
    sql = await PgliteSql.open({
      ...(config.dataDir !== 'memory://' && { dataDir: join(config.dataDir, 'pglite') }),
      ...(config.schema !== undefined && { schema: config.schema }),
    })
  }
  if (config.migrate ?? true) {
    try {
      await migrate(sql)
    } catch (err) {
      await sql.close()
      throw err
    }
  }
  return sql
}
