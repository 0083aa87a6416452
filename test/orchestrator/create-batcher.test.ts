// Group commit of submissions (src/orchestrator/create-batcher.ts), on PGlite and PostgreSQL:
// concurrent tasks share a transaction and each is answered only once its row, event and both jobs
// are committed; one bad row fails alone; a batch that dies before COMMIT leaves nothing behind and
// acknowledges nobody.
import { randomUUID } from 'node:crypto'
import t, { type Test } from 'tap'
import { type BatchJob, CreateBatcher } from '../../src/orchestrator/create-batcher.js'
import { JobQueue } from '../../src/orchestrator/queue/job-queue.js'
import { enqueueTasks, orchestratorQueues, TASK_RUN, TASK_TIMEOUT } from '../../src/orchestrator/runner/queues.js'
import { openSql } from '../../src/stores/open-sql.js'
import type { Sql } from '../../src/stores/sql.js'
import { SqlTaskStore } from '../../src/stores/sql-task-store.js'
import type { NewTask } from '../../src/stores/task-store.js'
import { DATABASE_URL, dropSchema, freshSchemaName, SKIP_PG } from '../stores/pg-schema.js'

interface Setup {
  store: SqlTaskStore
  queue: JobQueue
  sql: Sql
  /** Sizes of the batches that reached the store, in order. */
  batches: number[]
  /** Transactions (createBatch calls) open at once: now, and the most seen. */
  concurrency: { now: number; max: number }
}

async function open(t: Test, kind: 'pglite' | 'postgres'): Promise<Setup> {
  const schema = freshSchemaName('batch')
  const sql =
    kind === 'pglite'
      ? await openSql({ dataDir: 'memory://' })
      : await openSql({ databaseUrl: DATABASE_URL, dataDir: 'unused', schema, poolSize: 10 })
  const queue = await JobQueue.start({
    sql,
    queues: orchestratorQueues(),
    ...(kind === 'postgres' && { schema: `pgboss_${schema}`, poolSize: 4 }),
  })
  t.teardown(async () => {
    await queue.stop({ graceful: false, timeoutMs: 1000 })
    await sql.close()
    if (kind === 'postgres') await dropSchema(schema, `pgboss_${schema}`)
  })
  const batches: number[] = []
  const concurrency = { now: 0, max: 0 }
  const store = new SqlTaskStore(sql)
  const createBatch = store.createBatch.bind(store)
  store.createBatch = async (tasks, enqueue) => {
    batches.push(tasks.length)
    concurrency.max = Math.max(concurrency.max, ++concurrency.now)
    try {
      return await createBatch(tasks, enqueue)
    } finally {
      concurrency.now--
    }
  }
  return { store, queue, sql, batches, concurrency }
}

const TENANT = 'batch-tests'

const newTask = (goal = 'summarise the report'): NewTask => ({
  task_id: randomUUID(),
  tenant: TENANT,
  goal,
  deadline_at: new Date(Date.now() + 60_000).toISOString(),
})

async function jobsOf(queue: JobQueue, name: string, taskId: string) {
  return queue.pgBoss.findJobs(name, { data: { task_id: taskId } })
}

function suite(kind: 'pglite' | 'postgres'): void {
  t.test(`group commit (${kind})`, { skip: kind === 'postgres' ? SKIP_PG : false }, async (t) => {
    const { store, queue, sql, batches, concurrency } = await open(t, kind)
    const batcher = (enqueue = (tx: Sql, jobs: readonly BatchJob[]) => enqueueTasks(queue, tx, jobs)) =>
      new CreateBatcher(store, enqueue, { maxInFlight: 1, maxBatch: 64 })

    await t.test('concurrent submissions share transactions; each is answered with its committed record and jobs', async (t) => {
      batches.length = 0
      const b = batcher()
      const tasks = Array.from({ length: 30 }, (_, i) => newTask(`task ${i}`))
      const created = await Promise.all(
        tasks.map((task, i) => b.create(task, { task_id: task.task_id, tenant: TENANT, timeout_seconds: 100 + i })),
      )
      t.equal(
        batches.reduce((a, n) => a + n, 0),
        30,
        'every task went through a batch',
      )
      t.ok(batches.length < 30, `fewer transactions than tasks (${batches.join(', ')})`)
      for (const [i, task] of tasks.entries()) {
        const record = created[i]!
        t.equal(record.task_id, task.task_id, "answers come back in the callers' order")
        t.same(record, await store.get(TENANT, task.task_id), 'the record built from RETURNING is what a read gives')
        t.same(
          (await store.eventsAfter(TENANT, task.task_id, 0, 10)).map((e) => [e.seq, e.type, e.data]),
          [[1, 'task.created', { status: 'queued', priority: 'medium' }]],
        )
        t.equal((await jobsOf(queue, TASK_RUN, task.task_id)).length, 1, 'one task.run job')
        const [timeout, ...more] = await jobsOf(queue, TASK_TIMEOUT, task.task_id)
        t.equal(more.length, 0, 'one task.timeout job')
        const delay = (timeout!.startAfter.getTime() - timeout!.createdOn.getTime()) / 1000
        t.ok(Math.abs(delay - (100 + i)) < 2, `task.timeout delayed by the task's own timeout (${delay} s)`)
      }
    })

    await t.test('a row that fails (its id exists) is refused alone; its neighbours commit', async (t) => {
      batches.length = 0
      concurrency.max = 0
      const b = batcher()
      const existing = (await store.create(newTask('already here'))).task
      const lead = newTask('lead') // goes alone, so the rest wait and leave together
      const tasks = [newTask('a'), { ...newTask('dup'), task_id: existing.task_id }, newTask('b'), newTask('c')]
      const outcomes = await Promise.allSettled(
        [lead, ...tasks].map((task) => b.create(task, { task_id: task.task_id, tenant: TENANT, timeout_seconds: 60 })),
      )
      t.same(batches.slice(0, 2), [1, 4], 'the four shared one batch, which failed')
      t.same(
        outcomes.map((o) => o.status),
        ['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled'],
      )
      t.equal(concurrency.max, 1, 'the one-by-one retries stay within maxInFlight (1): one transaction at a time')
      t.match((outcomes[2] as PromiseRejectedResult).reason, { code: '23505' }, 'the duplicate gets its own unique violation')
      for (const task of [lead, tasks[0]!, tasks[2]!, tasks[3]!]) {
        t.equal((await store.get(TENANT, task.task_id))?.goal, task.goal)
        t.equal((await jobsOf(queue, TASK_RUN, task.task_id)).length, 1, `${task.goal}: exactly one task.run after the retry`)
      }
      t.equal((await store.get(TENANT, existing.task_id))?.goal, 'already here', 'the existing task is untouched')
      t.equal((await jobsOf(queue, TASK_RUN, existing.task_id)).length, 0, 'and got no job')
    })

    await t.test('a batch that dies between its inserts and COMMIT acknowledges nobody and leaves nothing', async (t) => {
      batches.length = 0
      // The connection is lost after the task rows and task.run went in, before the commit: every
      // transaction, the batch and the one-by-one retries alike, rolls back.
      const b = batcher(async (tx, jobs) => {
        await enqueueTasks(queue, tx, jobs)
        throw new Error('connection lost before COMMIT')
      })
      const lead = newTask('lead')
      const tasks = [lead, newTask('x'), newTask('y'), newTask('z')]
      const outcomes = await Promise.allSettled(
        tasks.map((task) => b.create(task, { task_id: task.task_id, tenant: TENANT, timeout_seconds: 60 })),
      )
      t.same(
        outcomes.map((o) => o.status),
        ['rejected', 'rejected', 'rejected', 'rejected'],
        'no caller was told its task exists',
      )
      for (const task of tasks) {
        t.equal(await store.get(TENANT, task.task_id), null, 'no task row')
        t.equal((await jobsOf(queue, TASK_RUN, task.task_id)).length, 0, 'no task.run')
        t.equal((await jobsOf(queue, TASK_TIMEOUT, task.task_id)).length, 0, 'no task.timeout')
      }
      const { rows } = await sql.query<{ n: number | string }>('select count(*) as n from task_events where task_id = any($1::text[])', [
        tasks.map((x) => x.task_id),
      ])
      t.equal(Number(rows[0]?.n), 0, 'no events')
    })

    await t.test('when only the batch transaction fails, every task still commits, each acknowledged once', async (t) => {
      batches.length = 0
      let failBatches = true
      const b = batcher(async (tx, jobs) => {
        await enqueueTasks(queue, tx, jobs)
        if (failBatches && jobs.length > 1) throw new Error('the shared transaction failed')
      })
      const tasks = Array.from({ length: 6 }, (_, i) => newTask(`t${i}`))
      const created = await Promise.all(tasks.map((task) => b.create(task, { task_id: task.task_id, tenant: TENANT, timeout_seconds: 60 })))
      failBatches = false
      t.same(
        created.map((c) => c.task_id),
        tasks.map((x) => x.task_id),
      )
      for (const task of tasks) t.equal((await jobsOf(queue, TASK_RUN, task.task_id)).length, 1, 'one task.run, not two')
    })

    await t.test('drain waits for submissions still committing', async (t) => {
      const b = batcher()
      let done = 0
      const all = Array.from({ length: 10 }, () => {
        const task = newTask()
        return b.create(task, { task_id: task.task_id, tenant: TENANT, timeout_seconds: 60 }).then(() => done++)
      })
      await b.drain()
      t.equal(done, 10)
      await Promise.all(all)
    })
  })
}

suite('pglite')
suite('postgres')
