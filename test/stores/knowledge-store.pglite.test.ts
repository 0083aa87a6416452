// The KnowledgeStore contract on PGlite (in memory): the embedded default, with pgvector. Always runs.
import t from 'tap'
import { openSql } from '../../src/stores/open-sql.js'
import { SqlKnowledgeStore } from '../../src/stores/sql-knowledge-store.js'
import { knowledgeStoreContract } from './knowledge-store-contract.js'

const sql = await openSql({ dataDir: 'memory://' })
t.teardown(() => sql.close())

t.test('PGlite has pgvector, so the store compares vectors with <=>', async (t) => {
  t.equal((await SqlKnowledgeStore.open(sql)).vectorPath, 'pgvector')
})

await knowledgeStoreContract(t, sql)
