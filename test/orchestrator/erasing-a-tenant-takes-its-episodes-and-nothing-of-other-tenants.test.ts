// Erasing a tenant at the store level: its finished tasks with their steps, events, idempotency keys
// and episodic memory (also entries whose task is gone already), its knowledge and its API keys;
// another tenant's rows of every kind stay. More tasks than one batch holds all go.
import { randomUUID } from 'node:crypto'
import { eraseTenant } from '../../src/orchestrator/tenant-erasure.js'
import type { Sql } from '../../src/stores/sql.js'
import { SqlKnowledgeStore } from '../../src/stores/sql-knowledge-store.js'
import { SqlTaskStore } from '../../src/stores/sql-task-store.js'
import { onEachSql } from '../fixtures/each-sql.js'

async function finishedTask(sql: Sql, tenant: string): Promise<string> {
  const store = new SqlTaskStore(sql)
  const task_id = randomUUID()
  await store.create({ task_id, tenant, goal: 'g' }, { idempotencyKey: task_id, requestHash: 'h' })
  await store.upsertSteps(tenant, task_id, [{ step_id: 's1', action: 'Work.', arm: 'executor' }])
  await sql.query(`update tasks set status = 'completed', completed_at = now() where task_id = $1`, [task_id])
  return task_id
}

async function episode(sql: Sql, tenant: string, taskId: string = randomUUID()): Promise<void> {
  await sql.query(
    `insert into episodes (task_id, tenant, goal, steps, outcome, completed_at, embedder, embedding)
     values ($1, $2, 'g', '[]', 'done', now(), 'test', '{0.5,0.5}')`,
    [taskId, tenant],
  )
}

async function count(sql: Sql, table: string, tenantColumn: string | null, tenant: string, ids?: string[]): Promise<number> {
  const where = tenantColumn ? `${tenantColumn} = $1` : 'task_id = any($1::text[])'
  const { rows } = await sql.query<{ n: string | number }>(`select count(*) as n from ${table} where ${where}`, [
    tenantColumn ? tenant : ids,
  ])
  return Number(rows[0]?.n ?? 0)
}

onEachSql("erasing a tenant takes its rows of every kind and no other tenant's", async (t, sql) => {
  const knowledge = await SqlKnowledgeStore.open(sql)
  const goneTasks: string[] = []
  for (let i = 0; i < 205; i++) goneTasks.push(await finishedTask(sql, 'gone')) // more than one batch of 200
  for (const id of goneTasks.slice(0, 3)) await episode(sql, 'gone', id)
  await episode(sql, 'gone') // its task was deleted long ago
  await knowledge.ingest('gone', [{ text: 'The gone tenant runbook. Restart the worker after a deploy.' }])
  await sql.query(`insert into api_keys (id, tenant, role, name, secret_hash) values ($1, 'gone', 'member', 'k', $2)`, [
    randomUUID().slice(0, 16),
    new Uint8Array(32),
  ])

  const keptTask = await finishedTask(sql, 'kept')
  await episode(sql, 'kept', keptTask)
  await knowledge.ingest('kept', [{ text: 'The kept tenant handbook.' }])
  await sql.query(`insert into api_keys (id, tenant, role, name, secret_hash) values ($1, 'kept', 'member', 'k', $2)`, [
    randomUUID().slice(0, 16),
    new Uint8Array(32),
  ])

  const outcome = await eraseTenant({ sql, knowledge }, 'gone')
  t.match(outcome, { erased: { tasks: 205, knowledge_documents: 1, episodes: 4, api_keys: 1 } })

  t.equal(await count(sql, 'tasks', 'tenant', 'gone'), 0, 'no task')
  for (const table of ['task_steps', 'task_events', 'idempotency_keys']) {
    t.equal(await count(sql, table, null, '', goneTasks), 0, `no ${table} row`)
  }
  for (const table of ['episodes', 'knowledge_documents', 'knowledge_chunks', 'api_keys']) {
    t.equal(await count(sql, table, 'tenant', 'gone'), 0, `no ${table} row`)
    t.ok((await count(sql, table, 'tenant', 'kept')) >= 1, `the other tenant keeps its ${table} rows`)
  }
  t.equal(await count(sql, 'tasks', 'tenant', 'kept'), 1, 'the other tenant keeps its task')
  t.equal((await count(sql, 'task_events', null, '', [keptTask])) > 0, true, 'with its events')
})

onEachSql('erasing a tenant with a task still active erases nothing', async (t, sql) => {
  const knowledge = await SqlKnowledgeStore.open(sql)
  const done = await finishedTask(sql, 'busy')
  await new SqlTaskStore(sql).create({ task_id: randomUUID(), tenant: 'busy', goal: 'still queued' })
  t.same(await eraseTenant({ sql, knowledge }, 'busy'), { active: 1 })
  t.equal(await count(sql, 'tasks', null, '', [done]), 1, 'the finished task is still there')
})
