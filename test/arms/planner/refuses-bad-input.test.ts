// Input the orchestrator would never send is INPUT_INVALID naming the field and the rule, not a guess.
import t from 'tap'

import { createPlannerArm } from '../../../src/arms/planner/planner-arm.js'
import { armContext, executeRequest } from '../arm-context-fixture.js'

const call = (goal: string, input: Record<string, unknown>, tool = 'plan') =>
  createPlannerArm().execute(executeRequest({ tool, goal, input }), armContext({ arm: 'planner', tool }).ctx)

t.test('each bad input is refused with INPUT_INVALID naming the field and the rule', async (t) => {
  const bad: Array<[string, string, Record<string, unknown>, string]> = [
    ['an empty goal', '  ', {}, 'the goal is empty'],
    ['criteria that are not strings', 'x', { acceptance_criteria: [1] }, 'input.acceptance_criteria.0: must be string'],
    ['criteria that are not a list', 'x', { acceptance_criteria: 'be quick' }, 'input.acceptance_criteria: must be array'],
    [
      'allowed_arms that is not a list',
      'x',
      { constraints: { allowed_arms: 'executor' } },
      'input.constraints.allowed_arms: must be array',
    ],
    [
      'allowed_arms with a number',
      'x',
      { constraints: { allowed_arms: ['executor', 2] } },
      'input.constraints.allowed_arms.1: must be string',
    ],
    ['a previous failure that is not text', 'x', { previous_failure: { why: 1 } }, 'input.previous_failure: must be string'],
    ['constraints that are not an object', 'x', { constraints: 'fast' }, 'input.constraints: must be object or array'],
    ['constraints that are null', 'x', { constraints: null }, 'input.constraints: must be object or array'],
    ['a constraint list with a number', 'x', { constraints: ['fast', 3] }, 'input.constraints.1: must be string'],
  ]
  for (const [what, goal, input, message] of bad) {
    await t.rejects(call(goal, input), { name: 'ArmError', code: 'INPUT_INVALID', message, retryable: false }, what)
  }
})

t.test('a tool the planner does not have', async (t) => {
  await t.rejects(call('x', {}, 'execute'), { code: 'TOOL_UNKNOWN' })
})
