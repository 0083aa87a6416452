// The TaskStore contract on real PostgreSQL (DATABASE_URL), in a schema of its own. Skipped without it.
import t from 'tap'
import { openSql } from '../../src/stores/open-sql.js'
import { SqlTaskStore } from '../../src/stores/sql-task-store.js'
import { DATABASE_URL, dropSchema, freshSchemaName, SKIP_PG } from './pg-schema.js'
import { taskStoreContract } from './task-store-contract.js'
import { taskStorePlanContract } from './task-store-plan-contract.js'

t.test('TaskStore contract on PostgreSQL', { skip: SKIP_PG }, async (t) => {
  const schema = freshSchemaName('contract')
  t.teardown(() => dropSchema(schema))
  const sql = await openSql({ databaseUrl: DATABASE_URL, dataDir: 'unused', schema, poolSize: 20 })
  t.teardown(() => sql.close())
  await taskStoreContract(t, async () => ({ store: new SqlTaskStore(sql), sql, close: async () => {} }))
  await taskStorePlanContract(t, new SqlTaskStore(sql))
})
