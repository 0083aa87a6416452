// TASK_RETENTION_DAYS: finished tasks older than the window go with their steps, events,
// idempotency key and episodic-memory entry; active tasks and recent ones stay, whatever their age.
// A pass deletes in bounded batches.
import { randomUUID } from 'node:crypto'
import type { Test } from 'tap'
import { expireFinishedTasks } from '../../src/orchestrator/retention.js'
import type { Sql } from '../../src/stores/sql.js'
import { SqlTaskStore } from '../../src/stores/sql-task-store.js'
import type { TaskStatus } from '../../src/stores/task.js'
import { onEachSql } from '../fixtures/each-sql.js'

const TENANT = 'acme'

/** A task with a step, events, an idempotency key and an episode, moved to `status` `daysAgo` days ago. */
async function seed(sql: Sql, status: TaskStatus, daysAgo: number): Promise<string> {
  const store = new SqlTaskStore(sql)
  const task_id = randomUUID()
  await store.create({ task_id, tenant: TENANT, goal: `goal ${status} ${daysAgo}` }, { idempotencyKey: task_id, requestHash: 'h' })
  await store.upsertSteps(TENANT, task_id, [{ step_id: 's1', action: 'Work.', arm: 'executor' }])
  await store.appendEvent(TENANT, task_id, { type: 'test.note', data: {} })
  await sql.query(
    `insert into episodes (task_id, tenant, goal, steps, outcome, completed_at, embedder, embedding)
     values ($1, $2, 'g', '[]', 'done', now(), 'test', '{0.5,0.5}')`,
    [task_id, TENANT],
  )
  const final = ['completed', 'failed', 'cancelled', 'timed_out', 'rejected'].includes(status)
  await sql.query(
    `update tasks set status = $2, updated_at = now() - $3::float8 * interval '1 day',
            completed_at = case when $4::boolean then now() - $3::float8 * interval '1 day' end
      where task_id = $1`,
    [task_id, status, daysAgo, final && status !== 'rejected'],
  )
  return task_id
}

async function left(sql: Sql, table: string, ids: readonly string[]): Promise<number> {
  const { rows } = await sql.query<{ n: number | string }>(`select count(*) as n from ${table} where task_id = any($1::text[])`, [ids])
  return Number(rows[0]?.n ?? 0)
}

async function expectGone(t: Test, sql: Sql, ids: readonly string[], gone: boolean): Promise<void> {
  for (const table of ['tasks', 'task_steps', 'task_events', 'idempotency_keys', 'episodes']) {
    const n = await left(sql, table, ids)
    if (gone) t.equal(n, 0, `no ${table} rows left of the expired tasks`)
    else t.ok(n >= ids.length, `the kept tasks keep their ${table} rows`)
  }
}

onEachSql('retention deletes only old finished tasks, and everything hanging off them', async (t, sql) => {
  const expired = [
    await seed(sql, 'completed', 40),
    await seed(sql, 'failed', 31),
    await seed(sql, 'cancelled', 45),
    await seed(sql, 'timed_out', 60),
    await seed(sql, 'rejected', 90),
  ]
  const kept = [
    await seed(sql, 'completed', 29), // finished inside the window
    await seed(sql, 'running', 90), // old, but a worker may still act on it
    await seed(sql, 'queued', 90),
    await seed(sql, 'planning', 90),
    await seed(sql, 'cancelling', 90),
  ]

  t.equal(await expireFinishedTasks(sql, 0), 0, '0 days: retention is off, nothing goes')
  await expectGone(t, sql, expired, false)

  t.equal(await expireFinishedTasks(sql, 30, 2, 100), expired.length, 'every finished task older than 30 days, in batches of 2')
  await expectGone(t, sql, expired, true)
  await expectGone(t, sql, kept, false)
  t.equal(await expireFinishedTasks(sql, 30), 0, 'a second pass finds nothing')
})

onEachSql('one pass deletes at most its batches; the next pass goes on', async (t, sql) => {
  const ids = [await seed(sql, 'completed', 50), await seed(sql, 'completed', 40), await seed(sql, 'failed', 35)]
  t.equal(await expireFinishedTasks(sql, 30, 1, 2), 2, 'two batches of one')
  t.equal(await left(sql, 'tasks', ids), 1, 'one is left for the next pass')
  t.equal(await left(sql, 'tasks', [ids[2]!]), 1, 'the most recently finished one, since the oldest go first')
  t.equal(await expireFinishedTasks(sql, 30, 1, 2), 1, 'the next pass takes the rest')
  t.equal(await left(sql, 'tasks', ids), 0)
})
