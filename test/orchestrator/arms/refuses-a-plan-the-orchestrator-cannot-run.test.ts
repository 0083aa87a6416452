// The planner arm's DAG is checked before it is stored: known arms, unique ids, dependencies on
// earlier steps only (no unknown ids, no cycles), allowed_arms honoured (the guardian excepted).
import t from 'tap'
import { checkPlan } from '../../../src/orchestrator/runner/arm-planner.js'
import type { StoredTask } from '../../../src/stores/task.js'

const task = (constraints: StoredTask['constraints'] = {}) => ({ constraints }) as StoredTask
const known = (arm: string) => ['retriever', 'executor', 'guardian', 'judge'].includes(arm)
const step = (step_id: string, arm: string, depends_on: string[] = [], extra: object = {}) => ({
  step_id,
  arm,
  action: 'a',
  depends_on,
  ...extra,
})

t.test('a good plan comes back as the store takes it', async (t) => {
  const plan = checkPlan(
    { steps: [step('s1', 'executor', [], { tool: 'shell', input: { command: 'wc' } }), step('s2', 'guardian', ['s1'])] },
    task(),
    known,
  )
  t.same(plan, [
    { step_id: 's1', arm: 'executor', action: 'a', depends_on: [], input: { command: 'wc' }, tool: 'shell' },
    { step_id: 's2', arm: 'guardian', action: 'a', depends_on: ['s1'], input: {} },
  ])
})

t.test('each kind of bad plan is refused as PLAN_INVALID, not retryable', async (t) => {
  const bad: Array<[string, unknown, StoredTask['constraints']?]> = [
    ['no steps', { steps: [] }],
    ['no plan at all', null],
    ['an unknown arm', { steps: [step('s1', 'oracle')] }],
    ['a repeated id', { steps: [step('s1', 'executor'), step('s1', 'judge')] }],
    ['a dependency on a later step (a cycle)', { steps: [step('s1', 'executor', ['s2']), step('s2', 'judge', ['s1'])] }],
    ['a dependency on nothing', { steps: [step('s1', 'executor', ['s9'])] }],
    ['an input that is not an object', { steps: [step('s1', 'executor', [], { input: 'wc' })] }],
    ['an arm allowed_arms excludes', { steps: [step('s1', 'executor')] }, { allowed_arms: ['retriever'] }],
    ['too many steps', { steps: Array.from({ length: 51 }, (_, i) => step(`s${i}`, 'executor')) }],
  ]
  for (const [what, output, constraints] of bad) {
    t.throws(() => checkPlan(output, task(constraints), known), { code: 'PLAN_INVALID', retryable: false }, what)
  }
})

t.test('the guardian runs whatever allowed_arms says', async (t) => {
  const plan = checkPlan({ steps: [step('s1', 'retriever'), step('s2', 'guardian', ['s1'])] }, task({ allowed_arms: ['retriever'] }), known)
  t.equal(plan.length, 2)
})
