// The Qdrant vector index against a real server (QDRANT_URL): a search never returns another
// tenant's or another embedder's point, deleting a document, ids or a tenant removes their points,
// deleting or expiring a task removes its episode's point, and a Qdrant that cannot be reached is
// `VectorIndexUnavailableError` for every operation, which leaves the SQL rows as they were.
import { randomUUID } from 'node:crypto'
import t from 'tap'
import { expireFinishedTasks } from '../../src/orchestrator/retention.js'
import { openSql } from '../../src/stores/open-sql.js'
import { pointId, QdrantIndexes } from '../../src/stores/qdrant-vector-index.js'
import { SqlEpisodicMemory } from '../../src/stores/sql-episodic-memory.js'
import { SqlKnowledgeStore } from '../../src/stores/sql-knowledge-store.js'
import { SqlTaskStore } from '../../src/stores/sql-task-store.js'
import { forgetVectorsOf, TaskDeletion } from '../../src/stores/task-deletion.js'
import { ANY_TENANT } from '../../src/stores/tenant.js'
import { VectorIndexUnavailableError } from '../../src/stores/vector-index.js'
import { freshQdrant, SKIP_QDRANT } from './qdrant-server.js'

/** A unit vector along axis `i` of `n`, turned a little towards axis `j`. */
function unit(n: number, i: number, j = i, lean = 0): number[] {
  const v = Array.from({ length: n }, () => 0)
  v[i] = 1
  v[j] = (v[j] ?? 0) + lean
  const norm = Math.hypot(...v)
  return v.map((x) => x / norm)
}

/** Points of the collection matching `filter`, counted exactly. */
async function count(qdrant: QdrantIndexes, name: string, must: Record<string, string> = {}): Promise<number> {
  const filter = { must: Object.entries(must).map(([key, value]) => ({ key, match: { value } })) }
  return (await qdrant.client.count(name, { filter, exact: true })).count
}

t.test('a search sees its tenant and embedder only, best first, above the least similarity', { skip: SKIP_QDRANT }, async (t) => {
  const qdrant = freshQdrant(t)
  const index = qdrant.index('knowledge')
  await index.upsert([
    { id: 'a:0', tenant: 'a', embedder: 'e1', vector: unit(4, 0), documentId: 'a' },
    { id: 'a:1', tenant: 'a', embedder: 'e1', vector: unit(4, 0, 1, 0.5), documentId: 'a' },
    { id: 'b:0', tenant: 'b', embedder: 'e1', vector: unit(4, 0), documentId: 'b' },
    { id: 'c:0', tenant: 'a', embedder: 'e2', vector: unit(4, 0), documentId: 'c' },
    { id: 'z:0', tenant: 'a', embedder: 'e1', vector: [0, 0, 0, 0], documentId: 'z' },
  ])
  const ids = async (tenant: string | typeof ANY_TENANT, embedder = 'e1', min = 0.1) =>
    (await index.search(unit(4, 0), 10, min, tenant, embedder)).map((h) => h.id)
  t.same(await ids('a'), ['a:0', 'a:1'], "tenant a's points of embedder e1, the closer first")
  t.same(await ids('b'), ['b:0'], "tenant b never sees a's")
  t.same(await ids('nobody'), [])
  t.same(await ids('a', 'e2'), ['c:0'], 'another embedder is another space')
  t.same((await ids(ANY_TENANT)).sort(), ['a:0', 'a:1', 'b:0'], 'ANY_TENANT lifts the tenant filter only')
  t.same(await ids('a', 'e1', 0.95), ['a:0'], 'strictly above the least similarity')
  const [best] = await index.search(unit(4, 0), 1, 0, 'a', 'e1')
  t.ok(Math.abs(best!.similarity - 1) < 1e-6, 'the similarity is the cosine')
  t.same(await index.search(unit(3, 0), 5, 0, 'a', 'e1'), [], 'a size nothing was stored at finds nothing')
  t.equal(await count(qdrant, qdrant.collectionName('knowledge', 4)), 4, 'the zero vector got no point')
})

t.test('deleting a document, ids or a tenant removes their points', { skip: SKIP_QDRANT }, async (t) => {
  const qdrant = freshQdrant(t)
  const index = qdrant.index('knowledge')
  const name = qdrant.collectionName('knowledge', 4)
  await index.upsert([
    { id: 'd1:0', tenant: 'a', embedder: 'e', vector: unit(4, 0), documentId: 'd1' },
    { id: 'd1:1', tenant: 'a', embedder: 'e', vector: unit(4, 1), documentId: 'd1' },
    { id: 'd2:0', tenant: 'a', embedder: 'e', vector: unit(4, 2), documentId: 'd2' },
    { id: 'd3:0', tenant: 'b', embedder: 'e', vector: unit(4, 3), documentId: 'd3' },
    { id: 'd4:0', tenant: 'b', embedder: 'e', vector: unit(4, 3), documentId: 'd4' },
  ])
  await index.deleteDocument('d1')
  t.equal(await count(qdrant, name, { document_id: 'd1' }), 0, "the document's points are gone")
  t.equal(await count(qdrant, name), 3, 'the others stay')
  await index.deleteIds(['d2:0', 'no-such-id'])
  t.equal(await count(qdrant, name, { tenant: 'a' }), 0)
  await index.deleteIds([])
  await index.deleteTenant('b')
  t.equal(await count(qdrant, name), 0, "the tenant's points are gone")
})

t.test('an episode embedded again at another size leaves no point behind', { skip: SKIP_QDRANT }, async (t) => {
  const qdrant = freshQdrant(t)
  const index = qdrant.index('episodes')
  await index.upsert([{ id: 'task-1', tenant: 'a', embedder: 'small', vector: unit(3, 0) }])
  await index.upsert([{ id: 'task-1', tenant: 'a', embedder: 'large', vector: unit(5, 0) }])
  t.equal(await count(qdrant, qdrant.collectionName('episodes', 3)), 0)
  t.same(await index.search(unit(5, 0), 5, 0, 'a', 'large'), [{ id: 'task-1', similarity: 1 }])
  t.same(await qdrant.collections('episodes'), [qdrant.collectionName('episodes', 3), qdrant.collectionName('episodes', 5)].sort())
})

t.test('a collection deleted behind the process is created again by the next write', { skip: SKIP_QDRANT }, async (t) => {
  const qdrant = freshQdrant(t)
  const index = qdrant.index('knowledge')
  await index.upsert([{ id: 'd:0', tenant: 'a', embedder: 'e', vector: unit(4, 0), documentId: 'd' }])
  await qdrant.client.deleteCollection(qdrant.collectionName('knowledge', 4))
  t.same(await index.search(unit(4, 0), 5, 0, 'a', 'e'), [], 'a search finds nothing, without an error')
  await index.upsert([{ id: 'd:1', tenant: 'a', embedder: 'e', vector: unit(4, 1), documentId: 'd' }])
  t.same(await index.search(unit(4, 1), 5, 0.5, 'a', 'e'), [{ id: 'd:1', similarity: 1 }])
})

t.test('point ids are UUIDs derived from the kind and the row id', async (t) => {
  t.match(pointId('knowledge', 'doc:0'), /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
  t.equal(pointId('knowledge', 'doc:0'), pointId('knowledge', 'doc:0'))
  t.not(pointId('knowledge', 'x'), pointId('episodes', 'x'))
})

t.test('a Qdrant that cannot be reached fails every call as unavailable, and SQL keeps its rows as they were', async (t) => {
  // A port nothing listens on: connection refused at once.
  const down = new QdrantIndexes({ url: 'http://127.0.0.1:18499', prefix: 'down', timeoutMs: 2000 })
  const index = down.index('knowledge')
  const unavailable = { name: 'VectorIndexUnavailableError', dependency: 'qdrant', message: /^Qdrant is unavailable/ }
  await t.rejects(index.upsert([{ id: 'x', tenant: 'a', embedder: 'e', vector: unit(4, 0) }]), unavailable)
  await t.rejects(index.search(unit(4, 0), 5, 0, 'a', 'e'), unavailable)
  await t.rejects(index.deleteDocument('x'), unavailable)
  await t.rejects(index.deleteTenant('a'), unavailable)
  t.match(await index.check(), { ok: false, detail: /^qdrant: Qdrant is unavailable/ })

  const sql = await openSql({ dataDir: 'memory://' })
  t.teardown(() => sql.close())
  const store = await SqlKnowledgeStore.open(sql, undefined, { vectors: index })
  await t.rejects(store.ingest('a', [{ title: 'Lost', text: 'The okapi enclosure opens at nine.' }]), VectorIndexUnavailableError)
  t.equal((await store.list('a', { limit: 10, offset: 0 })).total, 0, 'the ingest was undone')
  await t.rejects(
    store.search('a', 'okapi', { k: 3 }),
    VectorIndexUnavailableError,
    'a search fails rather than answer from full text alone',
  )
  t.match(await store.check(), { ok: false, detail: /vectors: qdrant: Qdrant is unavailable/ })

  const memory = new SqlEpisodicMemory(sql, store.embedder, down.index('episodes'))
  const episode = { task_id: 't1', goal: 'Feed the okapi', steps: [], outcome: 'done', completed_at: new Date().toISOString() }
  await t.rejects(memory.remember('a', episode), VectorIndexUnavailableError)
  const { rows } = await sql.query('select 1 from episodes')
  t.equal(rows.length, 0, 'the episode row was undone too')
  await t.rejects(memory.similar('a', 'feed the okapi', 3), VectorIndexUnavailableError)
})

t.test('deleting a document while Qdrant is down keeps the document whole', { skip: SKIP_QDRANT }, async (t) => {
  const sql = await openSql({ dataDir: 'memory://' })
  t.teardown(() => sql.close())
  const up = freshQdrant(t)
  const store = await SqlKnowledgeStore.open(sql, undefined, { vectors: up.index('knowledge') })
  const [doc] = await store.ingest('a', [{ title: 'Kept', text: 'The tapir pool is cleaned on Tuesdays.' }])
  const down = new QdrantIndexes({ url: 'http://127.0.0.1:18499', prefix: up.settings.prefix, timeoutMs: 2000 })
  const cut = await SqlKnowledgeStore.open(sql, undefined, { vectors: down.index('knowledge') })
  await t.rejects(cut.delete('a', doc!.document_id), VectorIndexUnavailableError)
  t.match(await store.get('a', doc!.document_id), { title: 'Kept' }, 'the row is still there')
  t.equal((await store.search('a', 'tapir pool', { k: 1 }))[0]?.vector_rank, 1, 'and so are its points')
  t.equal(await store.delete('b', doc!.document_id), false, "another tenant's delete finds nothing")
  t.equal((await store.search('a', 'tapir pool', { k: 1 }))[0]?.vector_rank, 1, 'and removes no point')
  t.equal(await store.delete('a', doc!.document_id), true)
  t.equal(await count(up, up.collectionName('knowledge', 384), { document_id: doc!.document_id }), 0, 'its points went with it')
})

t.test("erasing a tenant's knowledge and episodes deletes their points", { skip: SKIP_QDRANT }, async (t) => {
  const sql = await openSql({ dataDir: 'memory://' })
  t.teardown(() => sql.close())
  const qdrant = freshQdrant(t)
  const store = await SqlKnowledgeStore.open(sql, undefined, { vectors: qdrant.index('knowledge') })
  const memory = new SqlEpisodicMemory(sql, store.embedder, qdrant.index('episodes'))
  const at = new Date().toISOString()
  for (const tenant of ['a', 'b']) {
    await store.ingest(tenant, [{ text: 'The quoll den is behind the fern gully.' }])
    await memory.remember(tenant, { task_id: `task-${tenant}`, goal: 'Find the quoll den', steps: [], outcome: 'done', completed_at: at })
  }
  t.equal(await store.deleteTenant('a'), 1)
  t.equal(await memory.deleteTenant('a'), 1)
  for (const kind of ['knowledge', 'episodes'] as const) {
    const name = qdrant.collectionName(kind, 384)
    t.equal(await count(qdrant, name, { tenant: 'a' }), 0, `no ${kind} point of the erased tenant`)
    t.equal(await count(qdrant, name, { tenant: 'b' }), 1, `the other tenant's ${kind} point stays`)
  }
})

t.test("deleting or expiring a task deletes its episode's point", { skip: SKIP_QDRANT }, async (t) => {
  const sql = await openSql({ dataDir: 'memory://' })
  t.teardown(() => sql.close())
  const qdrant = freshQdrant(t)
  const store = await SqlKnowledgeStore.open(sql, undefined, { vectors: qdrant.index('knowledge') })
  const memory = new SqlEpisodicMemory(sql, store.embedder, qdrant.index('episodes'))
  const tasks = new SqlTaskStore(sql)
  const at = new Date().toISOString()
  const ids = ['deleted', 'expired', 'kept'].map((name) => `${name}-${randomUUID()}`)
  for (const task_id of ids) {
    await tasks.create({ task_id, tenant: 'a', goal: 'Find the quoll den' })
    await sql.query(`update tasks set status = 'completed', completed_at = now() - interval '40 days' where task_id = $1`, [task_id])
    await memory.remember('a', { task_id, goal: 'Find the quoll den', steps: [], outcome: 'done', completed_at: at })
  }
  const name = qdrant.collectionName('episodes', 384)
  t.equal(await count(qdrant, name, { tenant: 'a' }), 3)

  t.ok(await new TaskDeletion(sql, forgetVectorsOf(memory)).deleteFinished('a', ids[0]!))
  t.equal(await count(qdrant, name, { tenant: 'a' }), 2, "the deleted task's point went with its row")

  await sql.query(`update tasks set completed_at = now() where task_id = $1`, [ids[2]])
  t.equal(await expireFinishedTasks(sql, 30, 100, 50, forgetVectorsOf(memory)), 1)
  t.equal(await count(qdrant, name, { tenant: 'a' }), 1, "the expired task's point went too; the recent one stays")
  t.same(
    (await memory.similar('a', 'Find the quoll den', 5)).map((s) => s.task_id),
    [ids[2]],
    'and search finds only the task that is left',
  )
})
