import { HashingEmbedder } from '../../src/llm/hashing-embedder.js'
import type { Sql } from '../../src/stores/sql.js'
import { SqlKnowledgeStore } from '../../src/stores/sql-knowledge-store.js'
import { nearestParams, nearestSql } from '../../src/stores/sql-vector-index.js'
import { VectorScan } from '../../src/stores/vector-scan.js'
import { onEachSql } from '../auth/each-sql.js'

const wait = { wait: true }
/** The tenant of every document but the one another tenant keeps. */
const T = 'tenant-a'
const topics = ['pumps', 'valves', 'gauges', 'boilers', 'turbines', 'filters', 'sensors', 'relays']
const paragraph = (i: number) =>
  `Note ${i}: the ${topics[i % 8]} of line ${i % 13} need ${topics[(i * 3) % 8]} checks every ${i % 5} weeks.`

async function sqlNearest(sql: Sql, vector: number[], embedder: string, k: number, min: number) {
  const { rows } = await sql.query<{ id: string; similarity: number }>(
    nearestSql('array', 'knowledge_chunks', 'chunk_id', T),
    nearestParams('array', vector, embedder, k, min, T),
  )
  return rows.map((r) => ({ id: r.id, similarity: Number(r.similarity) }))
}

onEachSql('the vector scan', async (t, connect) => {
  const sql = await connect()
  const store = await SqlKnowledgeStore.open(sql)
  const embedder = new HashingEmbedder()
  await store.ingest(
    T,
    Array.from({ length: 120 }, (_, i) => ({ title: `n${i}`, text: paragraph(i) })),
  )
  const scan = new VectorScan(sql)

  for (const query of ['pumps of line 3', 'valves and sensors checks', 'turbines every 2 weeks', 'relays']) {
    const [vector] = await embedder.embed([query])
    const expected = await sqlNearest(sql, vector!, embedder.id, 25, 0.1)
    const got = await scan.nearest(T, embedder.id, vector!, 25, 0.1, wait)
    t.ok(expected.length > 0, `${query}: the SQL path finds rows`)
    t.same(
      got?.map((h) => h.id),
      expected.map((h) => h.id),
      `${query}: same rows in the same order`,
    )
    t.ok(
      got!.every((h, i) => Math.abs(h.similarity - expected[i]!.similarity) < 1e-9),
      `${query}: same similarities`,
    )
  }

  // another process (connection) adds and deletes: the next search sees both
  const other = await SqlKnowledgeStore.open(await connect())
  const [vector] = await embedder.embed(['zeppelin hangar doors'])
  t.same(await scan.nearest(T, embedder.id, vector!, 5, 0.1, wait), [], 'nothing about zeppelins yet')
  const [theirs] = await other.ingest('tenant-b', [{ title: 'z', text: 'The zeppelin hangar doors open to the east.' }])
  t.same(await scan.nearest(T, embedder.id, vector!, 5, 0.1, wait), [], "another tenant's chunk is not compared")
  t.equal((await scan.nearest('tenant-b', embedder.id, vector!, 5, 0.1, wait))?.length, 1, 'it is found in its own tenant')
  t.same(
    await scan.nearest(T, embedder.id, vector!, 5, 0.1, wait),
    await sqlNearest(sql, vector!, embedder.id, 5, 0.1),
    'as the SQL answers',
  )
  await other.delete('tenant-b', theirs!.document_id)
  const [added] = await other.ingest(T, [{ title: 'z', text: 'The zeppelin hangar doors open to the east.' }])
  const found = await scan.nearest(T, embedder.id, vector!, 5, 0.1, wait)
  t.equal(found?.length, 1, "the other connection's ingest is seen")
  await other.delete(T, added!.document_id)
  t.same(await scan.nearest(T, embedder.id, vector!, 5, 0.1, wait), [], 'and its delete')

  // without waiting: null (the caller asks SQL) until the background load is in
  const fresh = new VectorScan(sql)
  t.equal(await fresh.nearest(T, embedder.id, vector!, 5, 0.1), null, 'no copy yet: null at once')
  let answer = null
  for (let i = 0; i < 200 && answer === null; i++) {
    await new Promise((r) => setTimeout(r, 25))
    answer = await fresh.nearest(T, embedder.id, vector!, 5, 0.1)
  }
  t.same(answer, [], 'then the copy answers')

  t.equal(await new VectorScan(sql, 1000).nearest(T, embedder.id, vector!, 5, 0.1, wait), null, 'too many numbers to hold: null')
})
