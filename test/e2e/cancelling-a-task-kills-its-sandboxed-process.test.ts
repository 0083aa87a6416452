import { execFileSync } from 'node:child_process'
import t from 'tap'
import { FINAL, postJson, waitForTask } from '../helpers/servers.js'
import { startGanglion } from './e2e-fixture.js'

// A marker no other process on the machine uses, so the check cannot be fooled by another sleep.
const SECONDS = '987'

function sleepers(): number {
  try {
    return execFileSync('pgrep', ['-f', `sleep ${SECONDS}`], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean).length
  } catch {
    return 0 // pgrep exits 1 when nothing matches
  }
}

t.test('cancelling a task kills the sandboxed process its step started', async (t) => {
  const base = await startGanglion(t)
  const task = await (await postJson(`${base}/api/v1/tasks`, { goal: `Run \`sleep ${SECONDS}\`` })).json()
  const running = await waitForTask(
    base,
    task.task_id,
    (x: any) => x.plan?.steps?.[0]?.status === 'running' || FINAL.includes(x.status),
    60_000,
  )
  t.equal(running.status, 'running')
  for (let i = 0; i < 50 && sleepers() === 0; i++) await new Promise((r) => setTimeout(r, 100))
  t.ok(sleepers() > 0, 'the sleep is running in the sandbox')

  const res = await fetch(`${base}/api/v1/tasks/${task.task_id}`, { method: 'DELETE' })
  t.equal(res.status, 200)
  const done = await waitForTask(base, task.task_id, (x) => FINAL.includes(x.status), 30_000)
  t.equal(done.status, 'cancelled')
  t.equal(done.plan.steps[0].status, 'cancelled')
  for (let i = 0; i < 20 && sleepers() > 0; i++) await new Promise((r) => setTimeout(r, 100))
  t.equal(sleepers(), 0, 'no sandboxed sleep survives the cancel')
})
