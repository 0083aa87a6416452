// DELETE mid-step: the request is persisted, the running step's signal fires at once through the
// runner's fast path, the task ends cancelled and keeps what its finished steps produced.

import { DelayStepRunner } from '../../fixtures/delay-step-runner.js'
import { onEachDatabase } from '../../fixtures/each-database.js'
import { RUNNER_TENANT, waitFinal, waitFor } from '../../fixtures/runner-node.js'

onEachDatabase('cancels a running step and keeps partial results', async (t, db) => {
  // s1 (executor) is quick, s2 (guardian) would take 20 s.
  const steps = new DelayStepRunner({ delayMs: (s) => (s.step_id === 's1' ? 20 : 20_000) })
  const node = await db.node({ steps })
  const task = await node.submit()
  await waitFor('s2 to start', async () => (steps.runs.some((r) => r.step_id === 's2') ? true : undefined))

  const began = Date.now()
  const cancelling = await node.store.requestCancel(RUNNER_TENANT, task.task_id)
  t.equal(cancelling?.status, 'cancelling', 'the request is persisted first')
  node.runner.abort(task, 'cancelled')
  const final = await waitFinal(node.store, task.task_id)
  t.ok(Date.now() - began < 5000, `ended in ${Date.now() - began} ms, not after the step's 20 s`)

  t.equal(final.status, 'cancelled')
  const s2Signal = steps.signals[steps.runs.findIndex((r) => r.step_id === 's2')]
  t.equal(s2Signal?.aborted, true, "the step's signal fired")
  t.equal(steps.runs.find((r) => r.step_id === 's2')?.how, 'aborted')
  t.same(
    final.plan.steps.map((s) => s.status),
    ['completed', 'cancelled'],
  )
  t.match(final.result, { partial: true, final: null, completed_steps: ['s1'], steps: { s1: { step_id: 's1' } } })
  const types = (await node.store.eventsAfter(RUNNER_TENANT, task.task_id, 0, 100)).map((e) => `${e.type}:${e.data.status ?? ''}`)
  t.same(types.slice(-3), ['task.status:cancelling', 'step.cancelled:cancelled', 'task.status:cancelled'])

  const again = await node.store.requestCancel(RUNNER_TENANT, task.task_id)
  t.equal(again?.status, 'cancelled', 'cancelling a finished task returns it unchanged')
})
