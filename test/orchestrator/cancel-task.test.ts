import t from 'tap'
import { DelayStepRunner } from '../fixtures/delay-step-runner.js'
import { heuristicPlanner } from '../fixtures/heuristic-planner.js'
import { testDetector } from '../fixtures/runner-node.js'
import { FINAL, orchestratorUrl, postJson, waitForTask } from '../helpers/servers.js'

const planner = heuristicPlanner(testDetector())

t.test('cancelling a running task aborts its step and keeps it cancelled', async (t) => {
  let started!: () => void
  const running = new Promise<void>((resolve) => {
    started = resolve
  })
  const steps = new DelayStepRunner({ delayMs: 30_000, onStart: () => started() })
  const base = await orchestratorUrl(t, {}, { scripted: { steps, planner } })
  const task = await (await postJson(`${base}/api/v1/tasks`, { goal: 'Search the archive for the 2019 audit' })).json()
  await running

  const res = await fetch(`${base}/api/v1/tasks/${task.task_id}`, { method: 'DELETE' })
  t.equal(res.status, 200)
  t.ok(['cancelling', 'cancelled'].includes((await res.json()).status))
  const done = await waitForTask(base, task.task_id, (x) => FINAL.includes(x.status))
  t.equal(done.status, 'cancelled')
  t.ok(
    steps.signals.some((s) => s.aborted),
    'the running step was aborted',
  )
  t.ok(done.plan.steps.some((s: { status: string }) => s.status === 'cancelled'))

  const again = await (await fetch(`${base}/api/v1/tasks/${task.task_id}/cancel`, { method: 'POST' })).json()
  t.equal(again.status, 'cancelled', 'cancelling a finished task returns it unchanged')
  t.equal(again.updated_at, done.updated_at)
})

t.test('cancelling a completed task returns it unchanged', async (t) => {
  const base = await orchestratorUrl(t)
  const task = await (await postJson(`${base}/api/v1/tasks`, { goal: 'Count the words of: say hello' })).json()
  const done = await waitForTask(base, task.task_id, (x) => FINAL.includes(x.status))
  t.equal(done.status, 'completed')
  const res = await fetch(`${base}/task/${task.task_id}/cancel`, { method: 'POST' })
  t.equal(res.status, 200)
  t.same(await res.json(), done)
})

t.test('a task past its timeout ends timed_out', async (t) => {
  const steps = new DelayStepRunner({ delayMs: 30_000 })
  const base = await orchestratorUrl(t, {}, { scripted: { steps, planner } })
  const task = await (await postJson(`${base}/api/v1/tasks`, { goal: 'Run the long report', constraints: { timeout_seconds: 1 } })).json()
  const done = await waitForTask(base, task.task_id, (x) => FINAL.includes(x.status), 20_000)
  t.equal(done.status, 'timed_out')
  t.equal(done.error?.code, 'TIMEOUT')
})
