// The KnowledgeStore contract on real PostgreSQL (DATABASE_URL), in a schema of its own. Skipped
// without it. CI's Debian PostgreSQL has no pgvector, so this is the run of the `real[]` path.
import t from 'tap'
import { openSql } from '../../src/stores/open-sql.js'
import { SqlKnowledgeStore } from '../../src/stores/sql-knowledge-store.js'
import { knowledgeStoreContract } from './knowledge-store-contract.js'
import { DATABASE_URL, dropSchema, freshSchemaName, SKIP_PG } from './pg-schema.js'

t.test('KnowledgeStore contract on PostgreSQL', { skip: SKIP_PG }, async (t) => {
  const schema = freshSchemaName('knowledge')
  t.teardown(() => dropSchema(schema))
  const sql = await openSql({ databaseUrl: DATABASE_URL, dataDir: 'unused', schema, poolSize: 5 })
  t.teardown(() => sql.close())
  const { rows } = await sql.query<{ has: boolean }>(
    `select exists (select 1 from pg_type where typname = 'vector' and pg_type_is_visible(oid)) as has`,
  )
  t.equal((await SqlKnowledgeStore.open(sql)).vectorPath, rows[0]!.has ? 'pgvector' : 'array', 'the path follows what the server has')
  await knowledgeStoreContract(t, sql)
})
