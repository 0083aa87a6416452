// The episodes' in-memory vector scan (servers without pgvector) against the `real[]` SQL it
// replaces, on PGlite (always) and PostgreSQL (DATABASE_URL): same rows, order and similarities;
// another connection's new, changed and re-embedded episodes seen at the next search without a
// reload; a removal reloads; on PostgreSQL, a write that commits after a later one has been read
// is still found.
import t from 'tap'
import type { Episode } from '../../src/arms/memory.js'
import { HashingEmbedder } from '../../src/llm/hashing-embedder.js'
import { EpisodeScan } from '../../src/stores/episode-scan.js'
import { migrate } from '../../src/stores/migrate.js'
import type { Sql } from '../../src/stores/sql.js'
import { SqlEpisodicMemory } from '../../src/stores/sql-episodic-memory.js'
import { nearestParams, nearestSql } from '../../src/stores/sql-vector-index.js'
import { ANY_TENANT } from '../../src/stores/tenant.js'
import { onEachSql } from '../auth/each-sql.js'

const wait = { wait: true }
/** The tenant of every episode but the one another tenant keeps. */
const T = 'tenant-a'
/** Above the chance likeness of two unrelated goals under the hashing embedder. */
const CLOSE = 0.2
const embedder = new HashingEmbedder()
const topics = ['pumps', 'valves', 'gauges', 'boilers', 'turbines', 'filters', 'sensors', 'relays']
const episode = (i: number, goal = `Check the ${topics[i % 8]} of line ${i % 13} and the ${topics[(i * 3) % 8]}`): Episode => ({
  task_id: `t${String(i).padStart(3, '0')}`,
  goal,
  steps: [],
  outcome: 'completed',
  completed_at: '2026-11-24T00:00:00Z',
})
const vectorOf = async (text: string) => (await embedder.embed([text]))[0]!

async function sqlNearest(sql: Sql, vector: number[], k: number, min = 0) {
  const { rows } = await sql.query<{ id: string; similarity: number }>(
    nearestSql('array', 'episodes', 'task_id', T),
    nearestParams('array', vector, embedder.id, k, min, T),
  )
  return rows.map((r) => ({ id: r.id, similarity: Number(r.similarity) }))
}

/** How many whole loads the scan has made: each is one read of `vector_versions` with the sizes. */
function countLoads(scan: EpisodeScan): () => number {
  let loads = 0
  const load = (scan as unknown as { load: (e: string) => Promise<unknown> }).load.bind(scan)
  ;(scan as unknown as { load: (e: string) => Promise<unknown> }).load = (e: string) => {
    loads++
    return load(e)
  }
  return () => loads
}

onEachSql('the episode scan', async (t, connect) => {
  const sql = await connect()
  await migrate(sql)
  const memory = new SqlEpisodicMemory(sql, embedder)
  for (let i = 0; i < 60; i++) await memory.remember(T, episode(i))
  const scan = new EpisodeScan(sql)
  const loads = countLoads(scan)

  for (const query of ['pumps of line 3', 'valves and sensors', 'turbines', 'relays and gauges']) {
    const vector = await vectorOf(query)
    const expected = await sqlNearest(sql, vector, 10)
    const got = await scan.nearest(T, embedder.id, vector, 10, 0, wait)
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
  t.equal(loads(), 1, 'one load for all of them')

  // another process (connection) adds, changes and re-embeds episodes: seen without a reload
  const other = new SqlEpisodicMemory(await connect(), embedder)
  const zeppelin = await vectorOf('zeppelin hangar doors')
  t.same(await scan.nearest(T, embedder.id, zeppelin, 3, CLOSE, wait), [], 'nothing about zeppelins yet')
  await other.remember(T, episode(100, 'Open the zeppelin hangar doors'))
  t.same(
    (await scan.nearest(T, embedder.id, zeppelin, 3, CLOSE, wait))?.map((h) => h.id),
    ['t100'],
    'a new episode is seen',
  )
  await other.remember('tenant-b', episode(300, 'Open the zeppelin hangar doors'))
  t.same(
    (await scan.nearest(T, embedder.id, zeppelin, 3, CLOSE, wait))?.map((h) => h.id),
    ['t100'],
    "another tenant's episode of the same goal is not compared",
  )
  t.same(
    (await scan.nearest('tenant-b', embedder.id, zeppelin, 3, CLOSE, wait))?.map((h) => h.id),
    ['t300'],
    'it is its own tenant',
  )
  t.same(
    (await scan.nearest(ANY_TENANT, embedder.id, zeppelin, 3, CLOSE, wait))?.map((h) => h.id).sort(),
    ['t100', 't300'],
    'ANY_TENANT: both',
  )
  t.same(await scan.nearest(T, embedder.id, zeppelin, 3, CLOSE, wait), await sqlNearest(sql, zeppelin, 3, CLOSE), 'as the SQL answers')
  await other.remember(T, episode(5, 'Inspect the zeppelin hangar doors and their hinges'))
  t.same((await scan.nearest(T, embedder.id, zeppelin, 3, CLOSE, wait))?.map((h) => h.id).sort(), ['t005', 't100'], 'a changed one too')
  await sql.query(`update episodes set embedder = 'another-embedder' where task_id = 't100'`)
  t.same(
    (await scan.nearest(T, embedder.id, zeppelin, 3, CLOSE, wait))?.map((h) => h.id),
    ['t005'],
    'one now of another embedder is dropped',
  )
  t.same(await scan.nearest(T, embedder.id, zeppelin, 3, CLOSE, wait), await sqlNearest(sql, zeppelin, 3, CLOSE), 'still the SQL answer')
  t.equal(loads(), 1, 'all without reloading')

  await sql.query(`delete from episodes where task_id = 't005'`)
  t.same(await scan.nearest(T, embedder.id, zeppelin, 3, CLOSE, wait), [], 'a removal is seen')
  t.equal(loads(), 2, 'by reloading whole')

  // the memory answers the same through the scan as through SQL
  const viaMemory = await memory.similar(T, 'pumps of line 3', 5)
  const viaSql = await sqlNearest(sql, await vectorOf('pumps of line 3'), 5)
  t.same(
    viaMemory.map((s) => s.task_id),
    viaSql.map((h) => h.id),
    "memory.similar: the SQL path's episodes, in order",
  )

  t.equal(await new EpisodeScan(sql, 100).nearest(T, embedder.id, zeppelin, 3, CLOSE, wait), null, 'too many numbers to hold: null')
})

t.test(
  'a write that commits after a later one was read is still found (PostgreSQL)',
  { skip: !process.env.DATABASE_URL && 'DATABASE_URL is not set' },
  async (t) => {
    const { openSql } = await import('../../src/stores/open-sql.js')
    const { dropSchema, freshSchemaName, DATABASE_URL } = await import('./pg-schema.js')
    const schema = freshSchemaName('episodes')
    const sql = await openSql({ databaseUrl: DATABASE_URL, dataDir: 'unused', schema, poolSize: 4 })
    t.teardown(async () => {
      await sql.close()
      await dropSchema(schema)
    })
    await migrate(sql)
    const memory = new SqlEpisodicMemory(sql, embedder)
    await memory.remember(T, episode(1))
    const scan = new EpisodeScan(sql)
    const zeppelin = await vectorOf('zeppelin hangar doors')
    await scan.nearest(T, embedder.id, zeppelin, 3, CLOSE, wait)

    // A transaction that starts writing first and commits last.
    let commit = (): void => {}
    const held = new Promise<void>((resolve) => {
      commit = resolve
    })
    let written = (): void => {}
    const isWritten = new Promise<void>((resolve) => {
      written = resolve
    })
    const slow = sql.transaction(async (tx) => {
      await new SqlEpisodicMemory(tx, embedder).remember(T, episode(200, 'Paint the zeppelin hangar doors red'))
      written()
      await held
    })
    await isWritten
    await memory.remember(T, episode(201, 'Oil the zeppelin hangar doors'))
    t.same(
      (await scan.nearest(T, embedder.id, zeppelin, 3, CLOSE, wait))?.map((h) => h.id),
      ['t201'],
      'the later write, committed, is read',
    )
    commit()
    await slow
    t.same(
      (await scan.nearest(T, embedder.id, zeppelin, 3, CLOSE, wait))?.map((h) => h.id).sort(),
      ['t200', 't201'],
      'the earlier one once it commits',
    )
  },
)
