// An arm is sent the task's acceptance criteria and constraints as the goal is sent: personal data
// replaced by placeholders. The stored task keeps the client's own text; keys, numbers and the
// constraints' shape are kept; the planner's input is redacted the same way.
import { randomUUID } from 'node:crypto'
import { Detector } from '@ganglion/reflex'
import t from 'tap'
import { armPlanner } from '../../../src/orchestrator/runner/arm-planner.js'
import { callArm } from '../../../src/orchestrator/runner/call-arm.js'
import { openSql } from '../../../src/stores/open-sql.js'
import { SqlTaskStore } from '../../../src/stores/sql-task-store.js'
import { scriptedArms } from './arm-call-fixture.js'

const sql = await openSql({ dataDir: 'memory://' })
t.teardown(() => sql.close())
const store = new SqlTaskStore(sql)

const { task } = await store.create({
  task_id: randomUUID(),
  tenant: 'pii-terms',
  goal: 'g',
  acceptance_criteria: ['the reply goes to ada@example.com', 'it is short'],
  constraints: { max_tokens: 500, notify: { to: ['grace@example.com'] }, allowed_arms: ['executor'] },
})

t.test('an arm call carries the criteria and constraints redacted', async (t) => {
  const arms = scriptedArms(store, { executor: () => ({ status: 'completed', output: {}, events: [] }) })
  await callArm(arms.deps, {
    task,
    stepId: 's1',
    arm: 'executor',
    tool: null,
    action: 'do it',
    goal: 'g',
    input: {},
    depOutputs: {},
    signal: new AbortController().signal,
  })
  const context = arms.requests[0]?.context
  t.same(context?.acceptance_criteria, ['the reply goes to [EMAIL_1]', 'it is short'])
  t.same(context?.constraints, { max_tokens: 500, notify: { to: ['[EMAIL_1]'] }, allowed_arms: ['executor'] })
  t.same(task.acceptance_criteria, ['the reply goes to ada@example.com', 'it is short'], 'the task keeps its own text')
})

t.test('the planner is given them redacted too', async (t) => {
  const arms = scriptedArms(store, {
    planner: () => ({
      status: 'completed',
      output: { steps: [{ step_id: 's1', arm: 'executor', tool: 'shell', action: 'x', input: {}, depends_on: [] }] },
      events: [],
    }),
    executor: () => ({ status: 'completed', output: {}, events: [] }),
  })
  await armPlanner({ ...arms.deps, detector: new Detector() })(task).catch(() => undefined)
  const input = arms.requests[0]?.input as { acceptance_criteria: string[]; constraints: unknown }
  t.same(input.acceptance_criteria, ['the reply goes to [EMAIL_1]', 'it is short'])
  t.same(input.constraints, { max_tokens: 500, notify: { to: ['[EMAIL_1]'] }, allowed_arms: ['executor'] })
})
