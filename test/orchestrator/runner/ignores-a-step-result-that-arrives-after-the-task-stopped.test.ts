// A step that ignores its signal and returns after the task was stopped does not change the
// task's final state or result, and its output is not recorded as completed.

import { DelayStepRunner } from '../../fixtures/delay-step-runner.js'
import { onEachDatabase } from '../../fixtures/each-database.js'
import { RUNNER_TENANT, waitFinal, waitFor } from '../../fixtures/runner-node.js'

onEachDatabase('ignores a step result that arrives after the task stopped', async (t, db) => {
  const steps = new DelayStepRunner({ delayMs: 1500, ignoreSignal: true })
  const node = await db.node({ steps })

  // Timed out while the step runs: the task is final at once, the step comes back later.
  const timed = await node.submit({}, 1)
  const final = await waitFinal(node.store, timed.task_id, 10_000)
  t.equal(final.status, 'timed_out')
  const run = await waitFor('the late step to return', async () => steps.runs.find((r) => r.task_id === timed.task_id && r.end > 0))
  t.ok(run.end > Date.parse(final.completed_at!), 'the step returned after the task ended')
  await new Promise((r) => setTimeout(r, 300))
  const after = await node.store.get(RUNNER_TENANT, timed.task_id)
  t.equal(after?.status, 'timed_out', 'still timed_out')
  t.same(after?.result, final.result, 'result unchanged')
  t.equal(after?.completed_at, final.completed_at)
  t.equal(after?.plan.steps[0]?.status, 'cancelled', 'the late output was not recorded as completed')

  // Cancelled while the step runs: the task waits in cancelling, then ends cancelled, not completed.
  const cancelled = await node.submit({}, 60)
  await waitFor('s1 to start', async () => (steps.runs.some((r) => r.task_id === cancelled.task_id) ? true : undefined))
  await node.store.requestCancel(RUNNER_TENANT, cancelled.task_id)
  node.runner.abort(cancelled, 'cancelled')
  const end = await waitFinal(node.store, cancelled.task_id, 10_000)
  t.equal(end.status, 'cancelled')
  t.same(
    end.plan.steps.map((s) => s.status),
    ['cancelled', 'cancelled'],
  )
})
