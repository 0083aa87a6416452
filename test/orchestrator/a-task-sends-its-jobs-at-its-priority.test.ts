// Both ways the API enqueues a new task (one by one, and a group-committed batch) send its task.run
// job at the task's queue priority; task.timeout keeps the default. A task without a priority is
// medium, which is pg-boss's default of 0.
import { randomUUID } from 'node:crypto'
import t, { type Test } from 'tap'
import { JobQueue } from '../../src/orchestrator/queue/job-queue.js'
import {
  enqueueTask,
  enqueueTasks,
  orchestratorQueues,
  QUEUE_PRIORITY,
  TASK_RUN,
  TASK_TIMEOUT,
} from '../../src/orchestrator/runner/queues.js'
import { openSql } from '../../src/stores/open-sql.js'
import type { Sql } from '../../src/stores/sql.js'
import { PRIORITIES, type Priority } from '../../src/stores/task.js'
import { DATABASE_URL, dropSchema, freshSchemaName, SKIP_PG } from '../stores/pg-schema.js'

async function open(t: Test, kind: 'pglite' | 'postgres'): Promise<{ sql: Sql; queue: JobQueue }> {
  const schema = freshSchemaName('prio')
  const sql =
    kind === 'pglite'
      ? await openSql({ dataDir: 'memory://' })
      : await openSql({ databaseUrl: DATABASE_URL, dataDir: 'unused', schema, poolSize: 4 })
  const queue = await JobQueue.start({
    sql,
    queues: orchestratorQueues(),
    ...(kind === 'postgres' && { schema: `pgboss_${schema}`, poolSize: 2 }),
  })
  t.teardown(async () => {
    await queue.stop({ graceful: false, timeoutMs: 1000 })
    await sql.close()
    if (kind === 'postgres') await dropSchema(schema, `pgboss_${schema}`)
  })
  return { sql, queue }
}

async function priorityOf(queue: JobQueue, name: string, taskId: string): Promise<number | undefined> {
  const [job] = await queue.pgBoss.findJobs(name, { data: { task_id: taskId } })
  return job?.priority
}

for (const kind of ['pglite', 'postgres'] as const) {
  t.test(`a new task's jobs carry its priority (${kind})`, { skip: kind === 'postgres' ? SKIP_PG : false }, async (t) => {
    const { sql, queue } = await open(t, kind)
    t.same(QUEUE_PRIORITY, { low: -1, medium: 0, high: 1, critical: 2 }, 'higher is fetched first; medium is the default 0')
    const choices: Array<Priority | undefined> = [...PRIORITIES, undefined]
    const job = (priority: Priority | undefined) => ({ task_id: randomUUID(), tenant: 'acme', timeout_seconds: 60, priority })
    const singles = choices.map(job)
    const batch = choices.map(job)
    for (const one of singles) await sql.transaction((tx) => enqueueTask(queue, tx, one))
    await sql.transaction((tx) => enqueueTasks(queue, tx, batch))

    for (const [how, jobs] of [
      ['one by one', singles],
      ['in a batch', batch],
    ] as const) {
      for (const j of jobs) {
        const want = QUEUE_PRIORITY[j.priority ?? 'medium']
        t.equal(await priorityOf(queue, TASK_RUN, j.task_id), want, `${how}: task.run of a ${j.priority ?? 'default'} task at ${want}`)
        t.equal(await priorityOf(queue, TASK_TIMEOUT, j.task_id), 0, `${how}: its task.timeout at the default`)
      }
    }
  })
}
