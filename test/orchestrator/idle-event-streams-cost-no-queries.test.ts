// 300 open, idle event streams run no statement of their own: the process listens once (on
// PostgreSQL, one connection outside the pool) and its safety poll is one statement for all of
// them. An append wakes only the streams of that task, each for one read, and a task runs to
// completed beside them with its streams getting its whole log.
import pg from 'pg'
import { onEachDatabase } from '../fixtures/each-database.js'
import { waitFinal } from '../fixtures/runner-node.js'
import { DATABASE_URL } from '../stores/pg-schema.js'
import { type OpenStream, sleep, streamRig, TENANT } from './event-streams-fixture.js'

const PER_TASK = 100
const POLL_MS = 250
const IDLE_MS = 1500

async function listeners(applicationName: string): Promise<number> {
  const client = new pg.Client({ connectionString: DATABASE_URL })
  await client.connect()
  try {
    const { rows } = await client.query<{ n: number }>(
      'select count(*)::int as n from pg_stat_activity where application_name = $1 and datname = current_database()',
      [applicationName],
    )
    return rows[0]!.n
  } finally {
    await client.end()
  }
}

onEachDatabase('300 idle event streams cost no queries', async (t, db) => {
  const rig = await streamRig(t, db, { safetyPollMs: POLL_MS })
  const tasks = [await rig.idleTask(), await rig.idleTask(), await rig.idleTask()]
  const streams: OpenStream[][] = []
  for (const task of tasks) {
    streams.push(await Promise.all(Array.from({ length: PER_TASK }, () => rig.open(task.task_id))))
  }
  await Promise.all(streams.flat().map((s) => s.received(1, 60_000)))
  t.equal(rig.feed.following, 3 * PER_TASK, 'every stream follows its task')
  if (db.kind === 'postgres') {
    t.equal(await listeners(`ganglion-events ${rig.node.sql.schema}`), 1, 'one listening connection for the process')
  }

  const route = rig.routeQueries()
  const feed = rig.feedQueries()
  await sleep(IDLE_MS)
  t.equal(rig.routeQueries() - route, 0, 'no stream ran a statement while idle')
  const polls = rig.feedQueries() - feed
  t.ok(polls >= 1 && polls <= IDLE_MS / POLL_MS + 1, `the safety poll is one statement for all streams (${polls} in ${IDLE_MS} ms)`)

  const before = rig.routeQueries()
  await rig.node.store.appendEvent(TENANT, tasks[0]!.task_id, { type: 'step.progress', data: { n: 1 } })
  await Promise.all(streams[0]!.map((s) => s.received(2, 60_000)))
  t.equal(rig.routeQueries() - before, PER_TASK, "one read for each of that task's streams")
  await sleep(POLL_MS * 2)
  t.ok(
    streams.slice(1).every((group) => group.every((s) => s.events.length === 1)),
    "the other tasks' streams were not sent anything",
  )

  const running = await rig.node.submit({ tenant: TENANT })
  const watching = await Promise.all([rig.open(running.task_id), rig.open(running.task_id)])
  const done = await waitFinal(rig.node.store, running.task_id, 60_000, TENANT)
  t.equal(done.status, 'completed', 'a task runs to completed beside the open streams')
  await Promise.all(watching.map((s) => s.ended))
  const log = await rig.node.store.eventsAfter(TENANT, running.task_id, 0, 1000)
  for (const s of watching) {
    t.same(
      s.events.map((e) => [e.id, e.event]),
      log.map((e) => [e.seq, e.type]),
      'a stream of the running task got its whole log, in order, and ended',
    )
  }

  for (const s of streams.flat()) s.close()
  for (let i = 0; i < 400 && rig.feed.following > 0; i++) await sleep(25)
  t.equal(rig.feed.following, 0, 'closed streams stop following')
})
