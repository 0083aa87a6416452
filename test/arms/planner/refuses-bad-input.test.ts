// Input the orchestrator would never send is INPUT_INVALID, not a guess.
import t from 'tap'

import { createPlannerArm } from '../../../src/arms/planner/planner-arm.js'
import { armContext, executeRequest } from '../arm-context-fixture.js'

const call = (goal: string, input: Record<string, unknown>, tool = 'plan') =>
  createPlannerArm().execute(executeRequest({ tool, goal, input }), armContext({ arm: 'planner', tool }).ctx)

t.test('each bad input is refused with INPUT_INVALID', async (t) => {
  const bad: Array<[string, string, Record<string, unknown>]> = [
    ['an empty goal', '  ', {}],
    ['criteria that are not strings', 'x', { acceptance_criteria: [1] }],
    ['allowed_arms that is not a list', 'x', { constraints: { allowed_arms: 'executor' } }],
    ['a previous failure that is not text', 'x', { previous_failure: { why: 1 } }],
    ['constraints that are not an object', 'x', { constraints: 'fast' }],
  ]
  for (const [what, goal, input] of bad) await t.rejects(call(goal, input), { name: 'ArmError', code: 'INPUT_INVALID' }, what)
})

t.test('a tool the planner does not have', async (t) => {
  await t.rejects(call('x', {}, 'execute'), { code: 'TOOL_UNKNOWN' })
})
