// A step that keeps failing with a retryable error is retried by pg-boss (attempts 1 + retryLimit),
// then the task fails with the step's error and the steps after it are skipped. A non-retryable
// error fails at once.

import { DelayStepRunner, StepError } from '../../fixtures/delay-step-runner.js'
import { onEachDatabase } from '../../fixtures/each-database.js'
import { RUNNER_TENANT, waitFinal } from '../../fixtures/runner-node.js'

onEachDatabase('retries a failing step, then fails the task', async (t, db) => {
  const steps = new DelayStepRunner({
    delayMs: 10,
    fail: (step, attempt) => {
      if (step.arm !== 'executor') return undefined
      if (step.action.includes('flaky') && attempt >= 2) return undefined // succeeds on its second attempt
      if (step.action.includes('broken')) return new StepError('INPUT_INVALID', 'cannot do that')
      return new StepError('ARM_UNREACHABLE', 'the executor is down')
    },
  })
  const node = await db.node({ steps, tuning: { stepRetryLimit: 2, stepRetryDelaySeconds: 1 } })
  const [down, flaky, broken] = await Promise.all([
    node.submit({ goal: 'run ls in the sandbox' }),
    node.submit({ goal: 'run the flaky ls in the sandbox' }),
    node.submit({ goal: 'run the broken ls in the sandbox' }),
  ])

  const failed = await waitFinal(node.store, down.task_id, 30_000)
  t.equal(failed.status, 'failed')
  t.match(failed.error, { code: 'ARM_UNREACHABLE' })
  t.same(
    failed.plan.steps.map((s) => [s.status, s.attempts]),
    [
      ['failed', 3],
      ['skipped', 0],
    ],
    'three attempts, then the rest skipped',
  )
  const types = (await node.store.eventsAfter(RUNNER_TENANT, down.task_id, 0, 100)).map((e) => e.type)
  t.equal(types.filter((x) => x === 'step.started').length, 3)
  t.equal(types.filter((x) => x === 'step.pending').length, 2, 'two retries logged')

  const recovered = await waitFinal(node.store, flaky.task_id, 30_000)
  t.equal(recovered.status, 'completed', 'a step that recovers on retry completes the task')
  t.equal(recovered.plan.steps[0]?.attempts, 2)

  const refused = await waitFinal(node.store, broken.task_id, 30_000)
  t.equal(refused.status, 'failed')
  t.match(refused.error, { code: 'INPUT_INVALID', retryable: false })
  t.equal(refused.plan.steps[0]?.attempts, 1, 'a non-retryable error is not retried')
})
