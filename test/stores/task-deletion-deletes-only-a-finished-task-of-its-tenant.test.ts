// TaskDeletion.deleteFinished: a finished task of the named tenant goes with its steps, events,
// idempotency key and episode; another tenant's, an active one and an unknown id are left alone
// (false), whatever the id's text (the route refuses a NUL, and anything but a UUID, before).
import { randomUUID } from 'node:crypto'
import type { Sql } from '../../src/stores/sql.js'
import { SqlTaskStore } from '../../src/stores/sql-task-store.js'
import { TaskDeletion } from '../../src/stores/task-deletion.js'
import { ANY_TENANT } from '../../src/stores/tenant.js'
import { onEachSql } from '../fixtures/each-sql.js'

async function task(sql: Sql, tenant: string, status: 'queued' | 'running' | 'completed'): Promise<string> {
  const task_id = randomUUID()
  const store = new SqlTaskStore(sql)
  await store.create({ task_id, tenant, goal: 'g' }, { idempotencyKey: task_id, requestHash: 'h' })
  await store.upsertSteps(tenant, task_id, [{ step_id: 's1', action: 'Work.', arm: 'executor' }])
  await sql.query(
    `insert into episodes (task_id, tenant, goal, steps, outcome, completed_at, embedder, embedding)
     values ($1, $2, 'g', '[]', 'done', now(), 'test', '{0.5,0.5}')`,
    [task_id, tenant],
  )
  await sql.query('update tasks set status = $2 where task_id = $1', [task_id, status])
  return task_id
}

async function rows(sql: Sql, id: string): Promise<number[]> {
  const counts: number[] = []
  for (const table of ['tasks', 'task_steps', 'task_events', 'idempotency_keys', 'episodes']) {
    const { rows } = await sql.query<{ n: string | number }>(`select count(*) as n from ${table} where task_id = $1`, [id])
    counts.push(Number(rows[0]?.n ?? 0))
  }
  return counts
}

onEachSql('deleteFinished deletes only a finished task of its tenant', async (t, sql) => {
  const deletion = new TaskDeletion(sql)
  const done = await task(sql, 'a', 'completed')
  const before = await rows(sql, done)
  t.ok(
    before.every((n) => n > 0),
    'the task has rows in every table',
  )

  t.equal(await deletion.deleteFinished('b', done), false, "another tenant's: not deleted")
  t.same(await rows(sql, done), before, 'and untouched')
  for (const status of ['queued', 'running'] as const) {
    const active = await task(sql, 'a', status)
    t.equal(await deletion.deleteFinished('a', active), false, `a ${status} task: not deleted`)
    t.equal((await rows(sql, active))[0], 1, 'and still there')
  }
  for (const id of [randomUUID(), '', "' or 1=1 --", 'x'.repeat(100_000)]) {
    t.equal(await deletion.deleteFinished('a', id), false, `id ${JSON.stringify(id.slice(0, 12))}: nothing`)
  }

  t.equal(await deletion.deleteFinished('a', done), true, 'its own tenant deletes it')
  t.same(await rows(sql, done), [0, 0, 0, 0, 0], 'with its steps, events, idempotency key and episode')
  t.equal(await deletion.deleteFinished('a', done), false, 'a second time: nothing')

  const other = await task(sql, 'c', 'completed')
  t.equal(await deletion.deleteFinished(ANY_TENANT, other), true, "an admin's every-tenant scope deletes any tenant's")
})
