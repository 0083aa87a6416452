// The task store's final-status hook: every way a task becomes final (a move to completed, failed,
// timed_out; a cancel of a queued task; a task created rejected) queues one delivery per receiver
// with its job, in the transaction of the status change; a move that is not final queues none; and
// when queueing fails, the status change rolls back with it.
import { randomUUID } from 'node:crypto'
import { JobQueue } from '../../src/orchestrator/queue/job-queue.js'
import { openSql } from '../../src/stores/open-sql.js'
import type { Sql } from '../../src/stores/sql.js'
import { SqlTaskStore } from '../../src/stores/sql-task-store.js'
import { WEBHOOK_EVENTS } from '../../src/webhooks/events.js'
import { queueOnFinal, WEBHOOK_DELIVER, WEBHOOK_QUEUES } from '../../src/webhooks/queue.js'
import { secretBox } from '../../src/webhooks/secret-box.js'
import { SqlWebhookStore } from '../../src/webhooks/sql-webhook-store.js'
import { onEachDatabase } from '../fixtures/each-database.js'
import { DATABASE_URL, dropSchema, freshSchemaName } from '../stores/pg-schema.js'

async function open(kind: 'pglite' | 'postgres', teardown: (fn: () => unknown) => void): Promise<{ sql: Sql; queue: JobQueue }> {
  const schema = freshSchemaName('webhooks')
  const sql =
    kind === 'pglite' ? await openSql({ dataDir: 'memory://' }) : await openSql({ databaseUrl: DATABASE_URL, dataDir: 'unused', schema })
  const queue = await JobQueue.start({
    sql,
    queues: WEBHOOK_QUEUES,
    ...(kind === 'postgres' && { schema: `pgboss_${schema}`, poolSize: 2 }),
  })
  teardown(async () => {
    await queue.stop({ graceful: false, timeoutMs: 1000 })
    await sql.close()
    if (kind === 'postgres') await dropSchema(schema, `pgboss_${schema}`)
  })
  return { sql, queue }
}

onEachDatabase('a final status and its deliveries commit together', async (t, db) => {
  const { sql, queue } = await open(db.kind, (fn) => t.teardown(fn))
  const webhooks = new SqlWebhookStore(sql, secretBox(undefined))
  const store = new SqlTaskStore(sql, { onFinal: queueOnFinal(webhooks, queue) })
  const { subscription } = await webhooks.createSubscription('acme', { url: 'https://hooks.example.com/a', events: WEBHOOK_EVENTS })
  await webhooks.createSubscription('other', { url: 'https://hooks.example.com/o', events: WEBHOOK_EVENTS })

  const deliveriesOf = async (taskId: string) =>
    (
      await sql.query<{ event: string; subscription_id: string | null; url: string }>(
        'select event, subscription_id, url from webhook_deliveries where task_id = $1 order by url',
        [taskId],
      )
    ).rows
  const newTask = async (webhookUrl?: string) => {
    const task_id = randomUUID()
    await store.create(
      { task_id, tenant: 'acme', goal: 'g' },
      webhookUrl === undefined ? {} : { enqueue: (tx) => webhooks.saveTaskUrl(tx, task_id, webhookUrl) },
    )
    return task_id
  }

  const completed = await newTask('https://hooks.example.com/own')
  await store.transition('acme', completed, ['queued'], 'planning')
  t.same(await deliveriesOf(completed), [], 'a move that is not final queues nothing')
  await store.transition('acme', completed, ['planning'], 'completed', { result: { answer: 42 } })
  t.same(
    await deliveriesOf(completed),
    [
      { event: 'task.completed', subscription_id: subscription.id, url: 'https://hooks.example.com/a' },
      { event: 'task.completed', subscription_id: null, url: 'https://hooks.example.com/own' },
    ],
    "the tenant's subscriber and the task's own URL, no other tenant's",
  )
  const body = JSON.parse(
    (await sql.query<{ body: string }>('select body from webhook_deliveries where task_id = $1 limit 1', [completed])).rows[0]!.body,
  )
  t.match(body, { type: 'task.completed', data: { task_id: completed, status: 'completed', result: { answer: 42 } } })
  const jobs = await queue.pgBoss.findJobs<{ delivery_id: string; attempt: number }>(WEBHOOK_DELIVER, { queued: true })
  t.equal(jobs.length, 2, 'one job per delivery')
  t.ok(jobs.every((j) => j.data.attempt === 1))

  const cancelled = await newTask()
  await store.requestCancel('acme', cancelled)
  t.same(
    (await deliveriesOf(cancelled)).map((d) => d.event),
    ['task.cancelled'],
    'a queued task cancelled',
  )
  const timedOut = await newTask()
  await store.transition('acme', timedOut, ['queued'], 'timed_out')
  t.same(
    (await deliveriesOf(timedOut)).map((d) => d.event),
    ['task.timed_out'],
  )
  const rejected = randomUUID()
  await store.create({ task_id: rejected, tenant: 'acme', goal: 'g', status: 'rejected', reason: 'injection' })
  t.same(
    (await deliveriesOf(rejected)).map((d) => d.event),
    ['task.rejected'],
    'a task created final',
  )

  const again = await store.transition('acme', completed, ['completed'], 'failed')
  t.equal(again, null, 'a final status never moves')
  t.equal((await deliveriesOf(completed)).length, 2, 'and queues nothing more')

  // A hook that fails takes the status change down with it.
  const failing = new SqlTaskStore(sql, {
    onFinal: async () => {
      throw new Error('queue down')
    },
  })
  const doomed = await newTask()
  await t.rejects(failing.transition('acme', doomed, ['queued'], 'failed'), /queue down/)
  t.equal((await store.get('acme', doomed))?.status, 'queued', 'the task is still queued')
})
