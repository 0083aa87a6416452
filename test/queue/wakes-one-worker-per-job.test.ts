// A wake-one queue (step.run) sends no NOTIFY: a job sent outside a transaction wakes one idle
// worker of the sending process, and when every worker is busy the next one to finish fetches at
// once. Polling is set to 30 s here, so anything taken within five seconds was woken, not polled.
// On PostgreSQL the fetches are counted: about one per job, where a NOTIFY would wake all eight.
import pg from 'pg'
import t, { type Test } from 'tap'
import { JobQueue, type QueueDefinition } from '../../src/orchestrator/queue/job-queue.js'
import { openSql } from '../../src/stores/open-sql.js'
import type { Sql } from '../../src/stores/sql.js'
import { DATABASE_URL, dropSchema, freshSchemaName, SKIP_PG } from '../stores/pg-schema.js'

const WAKE_ONE: QueueDefinition = {
  name: 'wake.one',
  retryLimit: 0,
  retryDelaySeconds: 0,
  retryBackoff: false,
  expireInSeconds: 30,
  wakeOne: true,
}

let fetches = 0
const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown }
const original = proto.query
proto.query = function (this: unknown, ...a: unknown[]) {
  const text = typeof a[0] === 'string' ? a[0] : ((a[0] as { text?: string } | null)?.text ?? '')
  if (/skip locked/i.test(text) && text.includes('wake.one')) fetches++
  return original.apply(this, a)
}

const within = async <T>(ms: number, p: Promise<T>): Promise<T | 'late'> =>
  Promise.race([p, new Promise<'late'>((r) => setTimeout(() => r('late'), ms))])

async function behaviour(t: Test, sql: Sql, bossSchema: string, countFetches: boolean): Promise<void> {
  const queue = await JobQueue.start({ sql, schema: bossSchema, queues: [WAKE_ONE], pollingIntervalSeconds: 30 })
  t.teardown(() => queue.stop({ graceful: false, timeoutMs: 2000 }))
  const done = new Map<number, () => void>()
  const gates = new Map<number, Promise<void>>()
  await queue.work<{ n: number }>(
    'wake.one',
    async (job) => {
      await gates.get(job.data.n)
      done.get(job.data.n)?.()
    },
    { concurrency: 8 },
  )
  await new Promise((r) => setTimeout(r, 300)) // the workers' first (empty) fetches are over
  const handled = (n: number) => new Promise<void>((r) => done.set(n, r))

  const before = fetches
  for (let n = 0; n < 10; n++) {
    const seen = handled(n)
    await queue.send('wake.one', { n })
    t.not(await within(5000, seen), 'late', `job ${n} was taken at once`)
  }
  if (countFetches) t.ok(fetches - before <= 12, `${fetches - before} fetches for 10 jobs: one worker woken per job`)

  // All eight busy: a ninth job waits for the first worker to finish, which then fetches it at once.
  let release!: () => void
  const gate = new Promise<void>((r) => {
    release = r
  })
  const busy = Array.from({ length: 8 }, (_, i) => 100 + i)
  const started = busy.map((n) => {
    gates.set(n, gate)
    return handled(n)
  })
  for (const n of busy) await queue.send('wake.one', { n })
  const late = handled(200)
  await queue.send('wake.one', { n: 200 })
  await new Promise((r) => setTimeout(r, 300))
  t.equal(await within(10, late), 'late', 'nobody was free to take it')
  release()
  await Promise.all(started)
  t.not(await within(5000, late), 'late', 'taken as soon as a worker finished')
}

t.test('wakes one worker per job (PGlite)', async (t) => {
  const sql = await openSql({ dataDir: 'memory://' })
  t.teardown(() => sql.close())
  await behaviour(t, sql, 'pgboss', false)
})

t.test('wakes one worker per job (PostgreSQL)', { skip: SKIP_PG }, async (t) => {
  const schema = freshSchemaName('wake')
  const bossSchema = freshSchemaName('pgboss')
  const sql = await openSql({ databaseUrl: DATABASE_URL, dataDir: 'unused', schema })
  t.teardown(async () => {
    await sql.close()
    await dropSchema(schema, bossSchema)
  })
  await behaviour(t, sql, bossSchema, true)
})
