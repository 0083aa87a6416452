// Runs one behaviour on PGlite (always) and on PostgreSQL (when DATABASE_URL is set). `connect()`
// opens another connection to the same database, as another orchestrator process would: on PGlite
// the one in-memory instance, on PostgreSQL a new pool on the test's own schema.
import t, { type Test } from 'tap'
import { openSql } from '../../src/stores/open-sql.js'
import type { Sql } from '../../src/stores/sql.js'
import { DATABASE_URL, dropSchema, freshSchemaName, SKIP_PG } from '../stores/pg-schema.js'

export function onEachSql(name: string, body: (t: Test, connect: () => Promise<Sql>) => Promise<void>): void {
  t.test(`${name} (PGlite)`, async (t) => {
    const sql = await openSql({ dataDir: 'memory://' })
    t.teardown(() => sql.close())
    await body(t, async () => sql)
  })
  t.test(`${name} (PostgreSQL)`, { skip: SKIP_PG }, async (t) => {
    const schema = freshSchemaName('auth')
    const pools: Sql[] = []
    t.teardown(async () => {
      for (const pool of pools) await pool.close()
      await dropSchema(schema)
    })
    await body(t, async () => {
      const sql = await openSql({ databaseUrl: DATABASE_URL, dataDir: 'unused', schema, poolSize: 2 })
      pools.push(sql)
      return sql
    })
  })
}
