// A deployment that sets QDRANT_URL after documents and episodes were stored: the backfill copies
// the vectors the rows hold into Qdrant, so those documents are found by vector again; at start-up
// it runs only while Qdrant holds fewer points than the rows, and a second run rewrites the same points.
import t from 'tap'
import { openSql } from '../../src/stores/open-sql.js'
import { backfillQdrant } from '../../src/stores/qdrant-backfill.js'
import { SqlEpisodicMemory } from '../../src/stores/sql-episodic-memory.js'
import { SqlKnowledgeStore } from '../../src/stores/sql-knowledge-store.js'
import { freshQdrant, SKIP_QDRANT } from './qdrant-server.js'

t.test('rows stored before Qdrant are found by vector after the backfill', { skip: SKIP_QDRANT }, async (t) => {
  const sql = await openSql({ dataDir: 'memory://' })
  t.teardown(() => sql.close())
  // Before: vectors in the rows only.
  const before = await SqlKnowledgeStore.open(sql)
  const [doc] = await before.ingest('a', [{ title: 'Lenses', text: 'Seasoned photographers explain how they compose landscapes.' }])
  await before.ingest('b', [{ text: 'Seasoned photographers explain how they compose landscapes.' }])
  const at = new Date().toISOString()
  await new SqlEpisodicMemory(sql, before.embedder).remember('a', {
    task_id: 'old-task',
    goal: 'Compose a landscape photograph',
    steps: [],
    outcome: 'done',
    completed_at: at,
  })

  const qdrant = freshQdrant(t)
  const store = await SqlKnowledgeStore.open(sql, undefined, { vectors: qdrant.index('knowledge') })
  const memory = new SqlEpisodicMemory(sql, store.embedder, qdrant.index('episodes'))
  t.equal((await store.search('a', 'landscape photography', { k: 3 }))[0]?.vector_rank ?? null, null, 'not found by vector yet')

  t.same(await backfillQdrant(sql, qdrant, { onlyWhenBehind: true, batch: 1 }), { knowledge: 2, episodes: 1 }, 'one row at a time')
  const hits = await store.search('a', 'landscape photography', { k: 3 })
  t.match(hits, [{ document_id: doc!.document_id, vector_rank: 1, fts_rank: null }], "found by vector, its own tenant's only")
  t.same(
    (await memory.similar('a', 'compose a landscape photograph', 3)).map((s) => s.task_id),
    ['old-task'],
  )
  t.same(
    (await memory.similar('b', 'compose a landscape photograph', 3)).map((s) => s.task_id),
    [],
  )

  t.same(await backfillQdrant(sql, qdrant, { onlyWhenBehind: true }), { knowledge: 0, episodes: 0 }, 'not again once Qdrant has them all')
  await qdrant.index('knowledge').deleteIds([`${doc!.document_id}:0`]) // as if a copy had stopped short
  t.same(await backfillQdrant(sql, qdrant, { onlyWhenBehind: true }), { knowledge: 2, episodes: 0 }, 'again when one is missing')
  t.same(await backfillQdrant(sql, qdrant), { knowledge: 2, episodes: 1 }, 'asked to, it rewrites the same points')
  const name = qdrant.collectionName('knowledge', 384)
  t.equal((await qdrant.client.count(name, { exact: true })).count, 2, 'and adds none')
})
