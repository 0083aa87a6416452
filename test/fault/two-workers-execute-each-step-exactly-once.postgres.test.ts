// Two orchestrator processes on one PostgreSQL, 200 tasks: every task completes and every step's
// executions counter is exactly 1, and no task ever had more than MAX_PARALLEL_ARMS steps running
// across the two processes.
import { readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { maxOverlap, type StepRun } from '../fixtures/delay-step-runner.js'
import { startWorker, stopWorker } from '../fixtures/worker-processes.js'
import { SKIP_PG } from '../stores/pg-schema.js'
import { openFaultDb, pollUntil } from './fault-setup.js'

const TASKS = 200
const MAX_PARALLEL = 2

t.test('two workers execute each step exactly once over 200 tasks', { skip: SKIP_PG }, async (t) => {
  const db = await openFaultDb(30)
  t.teardown(() => db.close())
  const runsFile = join(tmpdir(), `ganglion-runs-${process.pid}`)
  t.teardown(() => {
    for (const name of ['a', 'b']) rmSync(`${runsFile}.${name}.json`, { force: true })
  })
  const env = { ...db.workerEnv, STEP_DELAY_MS: '10', MAX_PARALLEL_ARMS: String(MAX_PARALLEL), RUNS_FILE: runsFile }
  const workers = await Promise.all([startWorker('a', env), startWorker('b', env)])
  t.teardown(() => Promise.all(workers.map((w) => stopWorker(w))))

  const began = Date.now()
  const ids = await Promise.all(
    Array.from({ length: TASKS }, (_, i) => db.submit(`Search the docs and write a python script ${i} and run it`)),
  )
  t.equal(new Set(ids).size, TASKS)
  await pollUntil(
    'all tasks to finish',
    async () => {
      const { rows } = await db.sql.query<{ n: number }>(
        "select count(*)::int as n from tasks where status in ('queued', 'planning', 'running', 'cancelling')",
      )
      return rows[0]?.n === 0
    },
    90_000,
  )
  t.comment(`${TASKS} tasks (${TASKS * 4} steps) in ${Date.now() - began} ms`)

  t.same(await db.statusCounts(), { completed: TASKS }, 'every task completed')
  const { rows } = await db.sql.query<{ executions: number; n: number }>(
    'select executions, count(*)::int as n from task_steps group by executions',
  )
  t.same(rows, [{ executions: 1, n: TASKS * 4 }], 'each of the steps began exactly once')

  // Each worker writes the moments its steps ran when it stops; together they show both took part
  // and that no task ever had more than MAX_PARALLEL steps running across the two processes.
  await Promise.all(workers.map((w) => stopWorker(w)))
  const runs = workers.map((w) => JSON.parse(readFileSync(`${runsFile}.${w.name}.json`, 'utf8')) as StepRun[])
  t.comment(`steps per worker: ${workers.map((w, i) => `${w.name}=${runs[i]?.length}`).join(' ')}`)
  t.ok(
    runs.every((r) => r.length > 0),
    'both workers ran steps',
  )
  const all = runs.flat()
  t.equal(all.length, TASKS * 4, 'the workers ran as many steps as there are')
  const byTask = new Map<string, StepRun[]>()
  for (const r of all) byTask.set(r.task_id, [...(byTask.get(r.task_id) ?? []), r])
  const peak = Math.max(...[...byTask.values()].map(maxOverlap))
  t.equal(peak, MAX_PARALLEL, `steps of a task overlapped, never more than ${MAX_PARALLEL} at once (peak ${peak})`)
})
