// The process's listening connection is killed (pg_terminate_backend): it is opened again, and
// every stream re-reads from its last event id, so what was appended meanwhile still arrives, in
// order. With notices off, the reconnect alone delivers (the safety poll is set to a minute). On
// PGlite the listener is the instance's own and cannot drop: PostgreSQL only. The service itself
// opens one such connection beside its pool and closes it when it stops.
import pg from 'pg'
import pino from 'pino'
import t from 'tap'
import { start } from '../../src/app.js'
import { loadConfig } from '../../src/config/load.js'
import { openDatabase } from '../fixtures/runner-node.js'
import { DATABASE_URL, freshDatabase, SKIP_PG } from '../stores/pg-schema.js'
import { notices, sleep, streamRig, TENANT } from './event-streams-fixture.js'

async function admin(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: DATABASE_URL })
  await client.connect()
  return client
}

/** The backends listening for this schema's process: their pids. */
async function listenerPids(client: pg.Client, applicationName: string): Promise<number[]> {
  const { rows } = await client.query<{ pid: number }>(
    'select pid from pg_stat_activity where application_name = $1 and datname = current_database()',
    [applicationName],
  )
  return rows.map((r) => r.pid)
}

async function newListener(client: pg.Client, applicationName: string, old: number): Promise<number[]> {
  for (let i = 0; i < 400; i++) {
    const pids = await listenerPids(client, applicationName)
    if (pids.length === 1 && pids[0] !== old) return pids
    await sleep(25)
  }
  return listenerPids(client, applicationName)
}

t.test('the listener reconnecting after its connection is killed loses nothing', { skip: SKIP_PG }, async (t) => {
  const db = await openDatabase('postgres', DATABASE_URL)
  t.teardown(() => db.close())
  const rig = await streamRig(t, db, { safetyPollMs: 60_000 })
  const { store } = rig.node
  const name = `ganglion-events ${rig.node.sql.schema}`
  const client = await admin()
  t.teardown(() => client.end())
  const append = (n: number) => store.appendEvent(TENANT, task.task_id, { type: 'step.progress', data: { n } })

  const task = await rig.idleTask()
  const stream = await rig.open(task.task_id)
  await stream.received(1)
  const [first] = await listenerPids(client, name)
  t.ok(first, 'the process listens on a connection of its own')

  await client.query('select pg_terminate_backend($1)', [first])
  for (let n = 1; n <= 3; n++) await append(n)
  t.same(
    (await stream.received(4)).map((e) => e.id),
    [1, 2, 3, 4],
    'what was appended while the listener was down arrives, in order',
  )
  const [second] = await newListener(client, name, first!)
  t.ok(second !== undefined && second !== first, 'one listening connection again, a new one')
  await append(4)
  t.same(
    (await stream.received(5)).map((e) => e.id),
    [1, 2, 3, 4, 5],
    'and notices wake the stream again',
  )

  await notices(rig.node, false)
  t.teardown(() => notices(rig.node, true))
  await append(5)
  await append(6)
  await sleep(500)
  t.equal(stream.events.length, 5, 'with notices off, nothing wakes the stream')
  await client.query('select pg_terminate_backend($1)', [second])
  t.same(
    (await stream.received(7)).map((e) => e.id),
    [1, 2, 3, 4, 5, 6, 7],
    'the reconnect wakes every stream to read from its last event id',
  )
  await newListener(client, name, second!)
  await notices(rig.node, true)
  await store.transition(TENANT, task.task_id, ['queued'], 'cancelled')
  await stream.ended
  t.match(stream.events.at(-1), { id: 8, event: 'task.status', data: { status: 'cancelled' } })
})

t.test('the service listens on one connection beside its pool and closes it when it stops', { skip: SKIP_PG }, async (t) => {
  const url = await freshDatabase(t, 'ganglion_events')
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: 'unused', DATABASE_URL: url })
  const running = await start(config, { orchestrator: true }, pino({ level: 'silent' }))
  let stopped = false
  t.teardown(() => (stopped ? undefined : running.close()))
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  t.teardown(() => client.end())
  t.equal((await listenerPids(client, 'ganglion-events public')).length, 1, 'one listening connection')
  await running.close()
  stopped = true
  // The backend exits just after the client's Terminate message; give it a moment.
  let left = await listenerPids(client, 'ganglion-events public')
  for (let i = 0; i < 200 && left.length > 0; i++) {
    await sleep(25)
    left = await listenerPids(client, 'ganglion-events public')
  }
  t.same(left, [], 'closed with the service')
})
