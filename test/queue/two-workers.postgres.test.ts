// Two orchestrator-like processes (own pools, own pg-boss) on one PostgreSQL, every step job sent
// twice: each step still begins exactly once, because startStep is a conditional update.
import { randomUUID } from 'node:crypto'
import t from 'tap'
import { JobQueue } from '../../src/orchestrator/queue/job-queue.js'
import { openSql } from '../../src/stores/open-sql.js'
import type { Sql } from '../../src/stores/sql.js'
import { SqlTaskStore } from '../../src/stores/sql-task-store.js'
import { DATABASE_URL, dropSchema, freshSchemaName, SKIP_PG } from '../stores/pg-schema.js'

const TASKS = 40
const STEPS = ['s1', 's2', 's3']
const TENANT = 'queue-tests'

t.test('begins every step once across two workers and duplicate deliveries', { skip: SKIP_PG }, async (t) => {
  const schema = freshSchemaName('twoworkers')
  const bossSchema = freshSchemaName('pgboss')
  const queues = [{ name: 'step.run', retryLimit: 2, retryDelaySeconds: 0, retryBackoff: false, expireInSeconds: 30 }]
  const nodes: { sql: Sql; queue: JobQueue; store: SqlTaskStore }[] = []
  for (let i = 0; i < 2; i++) {
    const sql = await openSql({ databaseUrl: DATABASE_URL, dataDir: 'unused', schema, poolSize: 8 })
    const queue = await JobQueue.start({ sql, schema: bossSchema, queues, pollingIntervalSeconds: 0.5 })
    nodes.push({ sql, queue, store: new SqlTaskStore(sql) })
  }
  t.teardown(async () => {
    for (const n of nodes) await n.queue.stop({ graceful: false, timeoutMs: 2000 })
    for (const n of nodes) await n.sql.close()
    await dropSchema(schema, bossSchema)
  })

  let handled = 0
  for (const [i, node] of nodes.entries()) {
    await node.queue.work<{ task_id: string; step_id: string }>(
      'step.run',
      async ({ data }) => {
        handled++
        const step = await node.store.startStep(TENANT, data.task_id, data.step_id)
        if (!step) return // another delivery got it
        await new Promise((r) => setTimeout(r, 2))
        await node.store.updateStep(TENANT, data.task_id, data.step_id, ['running'], 'completed', { output: { by: i } })
      },
      { concurrency: 4 },
    )
  }

  const [first] = nodes
  const ids: string[] = []
  for (let i = 0; i < TASKS; i++) {
    const id = randomUUID()
    ids.push(id)
    await first!.store.create({ task_id: id, tenant: TENANT, goal: `task ${i}` })
    await first!.store.upsertSteps(
      TENANT,
      id,
      STEPS.map((s) => ({ step_id: s, action: 'noop', arm: 'executor' })),
    )
    await first!.store.transition(TENANT, id, ['queued'], 'running')
    await first!.sql.transaction(async (tx) => {
      for (const step_id of STEPS) {
        for (let copy = 0; copy < 2; copy++) await first!.queue.send('step.run', { task_id: id, step_id }, { tx })
      }
    })
  }

  const total = TASKS * STEPS.length
  const deadline = Date.now() + 60_000
  let done = 0
  while (Date.now() < deadline) {
    const { rows } = await first!.sql.query<{ n: number }>("select count(*)::int as n from task_steps where status = 'completed'")
    done = rows[0]?.n ?? 0
    if (done === total && handled === total * 2) break
    await new Promise((r) => setTimeout(r, 100))
  }
  t.equal(done, total, 'every step completed')
  t.equal(handled, total * 2, 'every duplicate delivery was handled')
  const { rows } = await first!.sql.query<{ executions: number; n: number }>(
    'select executions, count(*)::int as n from task_steps group by executions',
  )
  t.same(rows, [{ executions: 1, n: total }], 'each step began exactly once')
  const byWorker = await first!.sql.query<{ by: number; n: number }>(
    "select (output->>'by')::int as by, count(*)::int as n from task_steps group by 1 order by 1",
  )
  t.comment(`steps per worker: ${byWorker.rows.map((r) => `${r.by}=${r.n}`).join(' ')}`)
})
