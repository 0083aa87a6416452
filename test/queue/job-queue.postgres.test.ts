// The job queue on real PostgreSQL (DATABASE_URL), pg-boss with its own pool. Skipped without it.
import t from 'tap'
import { openSql } from '../../src/stores/open-sql.js'
import { DATABASE_URL, dropSchema, freshSchemaName, SKIP_PG } from '../stores/pg-schema.js'
import { jobQueueBehaviour } from './job-queue-behaviour.js'

t.test('job queue on PostgreSQL', { skip: SKIP_PG }, async (t) => {
  const schema = freshSchemaName('queue')
  const bossSchema = freshSchemaName('pgboss')
  const sql = await openSql({ databaseUrl: DATABASE_URL, dataDir: 'unused', schema })
  t.teardown(async () => {
    await sql.close()
    await dropSchema(schema, bossSchema)
  })
  await jobQueueBehaviour(t, sql, bossSchema)
})
