// The KnowledgeStore contract, and episodic memory's, with the vectors in Qdrant (QDRANT_URL) and
// the rows and full text on PGlite and on PostgreSQL (DATABASE_URL). Skipped without QDRANT_URL.
import t from 'tap'
import { openSql } from '../../src/stores/open-sql.js'
import { SqlKnowledgeStore } from '../../src/stores/sql-knowledge-store.js'
import { knowledgeStoreContract } from './knowledge-store-contract.js'
import { DATABASE_URL, dropSchema, freshSchemaName, SKIP_PG } from './pg-schema.js'
import { freshQdrant, SKIP_QDRANT } from './qdrant-server.js'

t.test('KnowledgeStore contract with Qdrant, rows on PGlite', { skip: SKIP_QDRANT }, async (t) => {
  const sql = await openSql({ dataDir: 'memory://' })
  t.teardown(() => sql.close())
  const qdrant = freshQdrant(t)
  const vectors = { knowledge: qdrant.index('knowledge'), episodes: qdrant.index('episodes') }
  t.equal((await SqlKnowledgeStore.open(sql, undefined, { vectors: vectors.knowledge })).vectorPath, 'qdrant')
  await knowledgeStoreContract(t, sql, vectors)
})

t.test('KnowledgeStore contract with Qdrant, rows on PostgreSQL', { skip: SKIP_QDRANT || SKIP_PG }, async (t) => {
  const schema = freshSchemaName('knowledge_qdrant')
  t.teardown(() => dropSchema(schema))
  const sql = await openSql({ databaseUrl: DATABASE_URL, dataDir: 'unused', schema, poolSize: 5 })
  t.teardown(() => sql.close())
  const qdrant = freshQdrant(t)
  await knowledgeStoreContract(t, sql, { knowledge: qdrant.index('knowledge'), episodes: qdrant.index('episodes') })
})
