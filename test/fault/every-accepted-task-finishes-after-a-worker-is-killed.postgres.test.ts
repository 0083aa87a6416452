// kill -9 an orchestrator process while its tasks run, start another: every accepted task still
// reaches a final state (here: completed), and only the steps in flight at the kill ran twice.
import t from 'tap'
import { startWorker, stopWorker } from '../fixtures/worker-processes.js'
import { SKIP_PG } from '../stores/pg-schema.js'
import { openFaultDb, pollUntil } from './fault-setup.js'

const TASKS = 20
// Short so the dead worker's jobs come back within seconds, long enough that a live step on a loaded
// machine never outlives it (which would be a second execution for another reason than the kill).
const LEASE = 5

t.test('every accepted task finishes after its worker is killed', { skip: SKIP_PG }, async (t) => {
  const db = await openFaultDb(LEASE)
  t.teardown(() => db.close())
  const env = { ...db.workerEnv, STEP_DELAY_MS: '300', MAX_PARALLEL_ARMS: '2' }

  const first = await startWorker('first', env)
  t.teardown(() => stopWorker(first))
  const ids: string[] = []
  // Four steps each (retriever, coder → executor, guardian): ~0.9 s of work per task.
  for (let i = 0; i < TASKS; i++) ids.push(await db.submit(`Search the docs and write a python script ${i} and run it`))

  await pollUntil(
    'some tasks to complete and some steps to be running',
    async () => {
      const { rows } = await db.sql.query<{ done: number; running: number }>(
        `select (select count(*)::int from tasks where status = 'completed') as done,
              (select count(*)::int from task_steps where status = 'running') as running`,
      )
      return (rows[0]?.done ?? 0) >= 2 && (rows[0]?.running ?? 0) > 0
    },
    30_000,
  )
  first.child.kill('SIGKILL')
  t.equal(await first.exited, 'SIGKILL', 'the first worker died by SIGKILL')
  // Nothing else runs yet, so this is exactly what the dead worker left in flight.
  const before = await db.statusCounts()
  const { rows: inflight } = await db.sql.query<{ n: number }>("select count(*)::int as n from task_steps where status = 'running'")
  t.comment(`at the kill: ${JSON.stringify(before)}, ${inflight[0]?.n} steps running`)

  const began = Date.now()
  const second = await startWorker('second', env)
  t.teardown(() => stopWorker(second))
  await pollUntil(
    'every task to reach a final state',
    async () => {
      const { rows } = await db.sql.query<{ n: number }>(
        "select count(*)::int as n from tasks where status in ('queued', 'planning', 'running', 'cancelling')",
      )
      return rows[0]?.n === 0
    },
    60_000,
  )
  t.comment(`recovered in ${Date.now() - began} ms after the restart`)

  const after = await db.statusCounts()
  t.same(after, { completed: TASKS }, 'every accepted task completed')
  const { rows: runs } = await db.sql.query<{ executions: number; n: number }>(
    'select executions, count(*)::int as n from task_steps group by executions order by executions',
  )
  t.comment(`steps by executions: ${runs.map((r) => `${r.executions}x=${r.n}`).join(' ')}`)
  const twice = runs.filter((r) => r.executions > 1).reduce((n, r) => n + r.n, 0)
  t.equal(twice, inflight[0]?.n, `exactly the ${twice} steps in flight at the kill ran again`)
  t.ok(
    runs.every((r) => r.executions <= 2),
    'no step ran more than twice',
  )
  const { rows: total } = await db.sql.query<{ n: number }>('select count(*)::int as n from task_steps')
  t.equal(total[0]?.n, TASKS * 4, 'all planned steps exist')
  await stopWorker(second)
})
