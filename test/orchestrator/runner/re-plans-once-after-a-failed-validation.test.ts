// A judge step that fails with VALIDATION_FAILED gets the task one new plan, told why; the new plan
// runs under fresh step ids and the old unfinished steps are kept as skipped. A second failed
// validation fails the task.
import type { NewStep } from '../../../src/stores/task-store.js'
import { DelayStepRunner, StepError } from '../../fixtures/delay-step-runner.js'
import { onEachDatabase } from '../../fixtures/each-database.js'
import { RUNNER_TENANT, waitFinal } from '../../fixtures/runner-node.js'

const plan: NewStep[] = [
  { step_id: 's1', arm: 'executor', action: 'work' },
  { step_id: 's2', arm: 'judge', action: 'check', depends_on: ['s1'] },
  { step_id: 's3', arm: 'guardian', action: 'scrub', depends_on: ['s2'] },
]

onEachDatabase('re-plans once after a failed validation', async (t, db) => {
  const feedback: (string | undefined)[] = []
  const steps = new DelayStepRunner({
    delayMs: 5,
    fail: (step) => {
      const strict = step.step_id === 's2' || step.action.includes('strict')
      return step.arm === 'judge' && strict ? new StepError('VALIDATION_FAILED', 'output lacks "42"', false) : undefined
    },
  })
  const node = await db.node({
    steps,
    planner: async (task, why) => {
      feedback.push(why)
      // The "strict" task fails its judge in every plan; the other only in the first.
      return task.goal.includes('strict') ? plan.map((s) => ({ ...s, action: `${s.action} strict` })) : plan
    },
  })

  const lenient = await waitFinal(node.store, (await node.submit({ goal: 'answer 42' })).task_id, 30_000)
  t.equal(lenient.status, 'completed', 'the second plan passed')
  t.same(
    lenient.plan.steps.map((s) => [s.step_id, s.status]),
    [
      ['s1', 'completed'],
      ['s2', 'skipped'],
      ['s3', 'skipped'],
      ['r1-s1', 'completed'],
      ['r1-s2', 'completed'],
      ['r1-s3', 'completed'],
    ],
  )
  t.same(lenient.plan.steps.find((s) => s.step_id === 'r1-s2')?.depends_on, ['r1-s1'], 'dependencies renamed with their steps')
  t.same(feedback, [undefined, 'output lacks "42"'], 'the planner was told why')
  t.match(lenient.result, { partial: false, final: { step_id: 'r1-s3' } }, 'the superseded steps are not missing work')
  const events = (await node.store.eventsAfter(RUNNER_TENANT, lenient.task_id, 0, 200)).map((e) => e.type)
  t.ok(events.includes('task.replanned'))

  feedback.length = 0
  const strict = await waitFinal(node.store, (await node.submit({ goal: 'answer 42 strict' })).task_id, 30_000)
  t.equal(strict.status, 'failed', 'no third plan')
  t.match(strict.error, { code: 'VALIDATION_FAILED' })
  t.equal(feedback.length, 2)
})
