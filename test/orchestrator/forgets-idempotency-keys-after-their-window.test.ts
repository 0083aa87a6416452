// Idempotency keys are kept for a window (24 h by default) and then pruned; the tasks stay.
import { randomUUID } from 'node:crypto'
import t from 'tap'
import { pruneIdempotencyKeys } from '../../src/orchestrator/retention.js'
import { openSql } from '../../src/stores/open-sql.js'
import { SqlTaskStore } from '../../src/stores/sql-task-store.js'

t.test('prunes keys older than the window and keeps their tasks', async (t) => {
  const sql = await openSql({ dataDir: 'memory://' })
  t.teardown(() => sql.close())
  const store = new SqlTaskStore(sql)
  const old = await store.create({ task_id: randomUUID(), tenant: 'default', goal: 'a' }, { idempotencyKey: 'old', requestHash: 'h' })
  await store.create({ task_id: randomUUID(), tenant: 'default', goal: 'b' }, { idempotencyKey: 'fresh', requestHash: 'h' })
  await sql.query(`update idempotency_keys set created_at = now() - interval '25 hours' where key = 'old'`)

  t.equal(await pruneIdempotencyKeys(sql, 24), 1)
  const { rows } = await sql.query<{ key: string }>('select key from idempotency_keys order by key')
  t.same(
    rows.map((r) => r.key),
    ['fresh'],
  )
  t.ok(await store.get('default', old.task.task_id), 'the task itself is history and stays')
  const again = await store.create({ task_id: randomUUID(), tenant: 'default', goal: 'a' }, { idempotencyKey: 'old', requestHash: 'other' })
  t.equal(again.replayed, false, 'the expired key is free again')
})
