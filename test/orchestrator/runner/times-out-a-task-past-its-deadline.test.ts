// TASK_TIMEOUT: the delayed task.timeout job ends the task timed_out, aborting its running step,
// keeping partial results; a task that finished in time is left alone by its timeout job.

import { DelayStepRunner } from '../../fixtures/delay-step-runner.js'
import { onEachDatabase } from '../../fixtures/each-database.js'
import { waitFinal } from '../../fixtures/runner-node.js'

onEachDatabase('times out a task past its deadline', async (t, db) => {
  const steps = new DelayStepRunner({ delayMs: (s, input) => (s.step_id === 's2' && input.goal.includes('slow') ? 30_000 : 20) })
  // The step limit is long: only the task's 2 s budget can stop it.
  const node = await db.node({ steps, runner: { stepTimeoutSeconds: 60 } })
  const quick = await node.submit({}, 60)
  const slow = await node.submit({ goal: 'run the slow ls in the sandbox' }, 2)
  const final = await waitFinal(node.store, slow.task_id, 15_000)
  t.equal(final.status, 'timed_out')
  t.match(final.error, { code: 'TIMEOUT' })
  t.same(
    final.plan.steps.map((s) => s.status),
    ['completed', 'cancelled'],
  )
  t.match(final.result, { partial: true, completed_steps: ['s1'] })
  t.equal(steps.runs.find((r) => r.task_id === slow.task_id && r.step_id === 's2')?.how, 'aborted', 'the running step was aborted')
  t.ok(Date.parse(final.completed_at!) - Date.parse(final.created_at) < 6000, 'ended within a few seconds of its deadline')

  t.equal((await waitFinal(node.store, quick.task_id)).status, 'completed', 'the other task was not touched')
})
