// The test process's side of a fault test: a fresh schema pair on DATABASE_URL, a store and a
// pg-boss sender for submitting tasks the way the API does, and the worker environment.
import { randomUUID } from 'node:crypto'
import { JobQueue } from '../../src/orchestrator/queue/job-queue.js'
import { enqueueTask, orchestratorQueues } from '../../src/orchestrator/runner/queues.js'
import { openSql } from '../../src/stores/open-sql.js'
import type { Sql } from '../../src/stores/sql.js'
import { SqlTaskStore } from '../../src/stores/sql-task-store.js'
import { DATABASE_URL, dropSchema, freshSchemaName } from '../stores/pg-schema.js'

export interface FaultDb {
  sql: Sql
  store: SqlTaskStore
  workerEnv: Record<string, string>
  submit(goal: string, timeoutSeconds?: number): Promise<string>
  /** Tasks by status. */
  statusCounts(): Promise<Record<string, number>>
  close(): Promise<void>
}

export async function openFaultDb(lease: number): Promise<FaultDb> {
  const schema = freshSchemaName('fault')
  const bossSchema = freshSchemaName('faultboss')
  const sql = await openSql({ databaseUrl: DATABASE_URL, dataDir: 'unused', schema, poolSize: 10 })
  // Creates pg-boss's schema and queues before any worker starts; this process never works a queue.
  const queue = await JobQueue.start({ sql, schema: bossSchema, queues: orchestratorQueues({ expireInSeconds: lease }), poolSize: 4 })
  const store = new SqlTaskStore(sql)
  return {
    sql,
    store,
    workerEnv: { DATABASE_URL: DATABASE_URL ?? '', RUNNER_SCHEMA: schema, RUNNER_BOSS_SCHEMA: bossSchema, LEASE_SECONDS: String(lease) },
    async submit(goal, timeoutSeconds = 300) {
      const task_id = randomUUID()
      const tenant = 'fault-tests'
      await store.create(
        { task_id, tenant, goal, deadline_at: new Date(Date.now() + timeoutSeconds * 1000).toISOString() },
        { enqueue: (tx) => enqueueTask(queue, tx, { task_id, tenant, timeout_seconds: timeoutSeconds }) },
      )
      return task_id
    },
    async statusCounts() {
      const { rows } = await sql.query<{ status: string; n: number }>('select status, count(*)::int as n from tasks group by status')
      return Object.fromEntries(rows.map((r) => [r.status, r.n]))
    },
    async close() {
      await queue.stop({ graceful: false, timeoutMs: 2000 })
      await sql.close()
      await dropSchema(schema, bossSchema)
    },
  }
}

export async function pollUntil(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}
