/**
 * What the orchestrator relies on from the job queue, run on each database (PGlite always,
 * PostgreSQL when DATABASE_URL is set): transactional enqueue, one run per committed job, retries
 * after a throw, and a second attempt after a lease runs out.
 */
import { randomUUID } from 'node:crypto'
import type { Test } from 'tap'
import { JobQueue, type QueueDefinition } from '../../src/orchestrator/queue/job-queue.js'
import type { Sql } from '../../src/stores/sql.js'
import { SqlTaskStore } from '../../src/stores/sql-task-store.js'

const quick = (name: string, extra: Partial<QueueDefinition> = {}): QueueDefinition => ({
  name,
  retryLimit: 2,
  retryDelaySeconds: 0,
  retryBackoff: false,
  expireInSeconds: 30,
  ...extra,
})

export const TEST_QUEUES: QueueDefinition[] = [
  quick('task.run'),
  quick('flaky'),
  quick('hang', { expireInSeconds: 1 }),
  quick('crash', { expireInSeconds: 1 }),
  quick('step.run', { wakeOne: true }),
]

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 20_000, everyMs = 50): Promise<boolean> {
  const end = Date.now() + timeoutMs
  while (Date.now() < end) {
    if (await condition()) return true
    await new Promise((r) => setTimeout(r, everyMs))
  }
  return false
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export async function jobQueueBehaviour(t: Test, sql: Sql, bossSchema: string): Promise<void> {
  const queue = await JobQueue.start({
    sql,
    schema: bossSchema,
    queues: TEST_QUEUES,
    superviseIntervalSeconds: 1,
    pollingIntervalSeconds: 0.5,
  })
  try {
    await behaviours(t, queue, sql)
  } finally {
    // Before the caller closes the database under it.
    await queue.stop({ graceful: false, timeoutMs: 2000 })
  }
}

async function behaviours(t: Test, queue: JobQueue, sql: Sql): Promise<void> {
  const store = new SqlTaskStore(sql)
  const boss = queue.pgBoss

  await t.test('enqueues inside the create transaction: rolled back means no job, committed runs once', async (t) => {
    const seen: string[] = []
    await queue.work<{ task_id: string }>('task.run', async (job) => {
      seen.push(job.data.task_id)
    })

    const lost = randomUUID()
    await t.rejects(
      store.create(
        { task_id: lost, tenant: 'queue-tests', goal: 'never accepted' },
        {
          enqueue: async (tx) => {
            await queue.send('task.run', { task_id: lost }, { tx })
            throw new Error('refused after enqueue')
          },
        },
      ),
    )
    t.same(await boss.findJobs('task.run', { data: { task_id: lost } }), [], 'the rollback took the job with it')

    const kept = randomUUID()
    await store.create(
      { task_id: kept, tenant: 'queue-tests', goal: 'accepted' },
      {
        enqueue: async (tx) => {
          await queue.send('task.run', { task_id: kept }, { tx })
        },
      },
    )
    const sent = Date.now()
    t.ok(await until(() => seen.includes(kept), 20_000, 5), 'the committed job ran')
    t.comment(`dispatch after commit: ${Date.now() - sent} ms (NOTIFY wakes the worker; polling is every 500 ms)`)
    await sleep(1500) // room for a duplicate delivery to show up
    t.same(seen, [kept], 'once, and the rolled-back job never')
  })

  await t.test('retries a handler that throws', async (t) => {
    const attempts: number[] = []
    await queue.work('flaky', async (job) => {
      attempts.push(job.retryCount)
      if (job.retryCount < 2) throw new Error(`attempt ${job.retryCount} fails`)
    })
    await queue.send('flaky', { n: 1 })
    t.ok(await until(() => attempts.length === 3), 'three attempts')
    t.same(attempts, [0, 1, 2])
  })

  await t.test('runs a job again when a handler outlives its lease', async (t) => {
    const attempts: number[] = []
    let aborted = false
    await queue.work(
      'hang',
      async (job) => {
        attempts.push(job.retryCount)
        if (job.retryCount === 0) {
          job.signal.addEventListener('abort', () => {
            aborted = true
          })
          await new Promise(() => {}) // never settles
        }
      },
      { concurrency: 2 },
    )
    await queue.send('hang', { n: 1 })
    t.ok(await until(() => attempts.length === 2), 'a second attempt after the 1 s lease')
    t.same(attempts, [0, 1])
    t.ok(aborted, 'the stuck attempt was told through its AbortSignal')
  })

  await t.test('retries a job whose worker claimed it and died', async (t) => {
    const id = await queue.send('crash', { n: 1 })
    // A worker that takes the job and then vanishes: claimed (active) in the database, never settled.
    const [claimed] = await boss.fetch('crash')
    t.equal(claimed?.id, id)
    const attempts: number[] = []
    await queue.work('crash', async (job) => {
      attempts.push(job.retryCount)
    })
    t.ok(await until(() => attempts.length === 1), 'the supervisor expired the lease and the job ran')
    t.same(attempts, [1], 'as its second attempt')
  })

  // The runner's step jobs: a step refused as busy ends its job at once and is sent again, same
  // data, when a slot frees, possibly while the refused job is still active. The re-send must run.
  await t.test('delivers a re-send of a job that is still active', async (t) => {
    const seen: number[] = []
    let release = (): void => {}
    const held = new Promise<void>((r) => {
      release = r
    })
    await queue.work<{ n: number }>(
      'step.run',
      async (job) => {
        seen.push(job.data.n)
        if (job.data.n === 1) await held
      },
      { concurrency: 2 },
    )
    const first = await queue.send('step.run', { n: 1 })
    t.ok(await until(() => seen.includes(1)), 'the first job is running')
    const again = await queue.send('step.run', { n: 2 })
    t.not(again, null, 'the second send was accepted')
    t.ok(await until(() => seen.includes(2)), 'and ran while the first was still active')
    release()
    t.not(again, first)
  })

  await t.test('refuses a queue it did not declare', async (t) => {
    await t.rejects(queue.send('nope', {}), /unknown queue nope/)
  })
}
