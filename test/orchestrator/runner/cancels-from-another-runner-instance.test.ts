// The DELETE reaches a different process than the one running the step: only the cancel request in
// the database connects them, and the running process's watcher stops the step.

import { DelayStepRunner } from '../../fixtures/delay-step-runner.js'
import { onEachDatabase } from '../../fixtures/each-database.js'
import { RUNNER_TENANT, waitFinal, waitFor } from '../../fixtures/runner-node.js'

onEachDatabase('cancels a step running in another runner instance', async (t, db) => {
  const a = new DelayStepRunner({ delayMs: 20_000 })
  const b = new DelayStepRunner({ delayMs: 20_000 })
  const one = await db.node({ steps: a })
  const two = await db.node({ steps: b })
  const task = await one.submit()
  const runner = await waitFor('s1 to start', async () => (a.runs.length > 0 ? 'one' : b.runs.length > 0 ? 'two' : undefined))
  const [owner, other, ownerSteps] = runner === 'one' ? [one, two, a] : [two, one, b]

  const began = Date.now()
  await other.store.requestCancel(RUNNER_TENANT, task.task_id)
  other.runner.abort(task, 'cancelled') // a no-op there: the step is not in that process
  const final = await waitFinal(owner.store, task.task_id)
  t.equal(final.status, 'cancelled')
  t.equal(ownerSteps.signals[0]?.aborted, true, "the owner's watcher aborted the step")
  t.ok(Date.now() - began < 3000, `stopped ${Date.now() - began} ms after the request`)
  t.same(
    final.plan.steps.map((s) => s.status),
    ['cancelled', 'cancelled'],
    'the running step cancelled, the next never started',
  )
})
