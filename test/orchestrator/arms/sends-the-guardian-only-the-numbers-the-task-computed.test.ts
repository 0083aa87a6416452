// The runner, not the plan, decides which numbers a dependency scrub keeps: a `keep` the plan wrote
// is replaced by the task's own computed numbers, and a scrub of a given text keeps nothing.
import { randomUUID } from 'node:crypto'
import t from 'tap'
import { ArmStepRunner } from '../../../src/orchestrator/runner/arm-step-runner.js'
import { openSql } from '../../../src/stores/open-sql.js'
import { SqlTaskStore } from '../../../src/stores/sql-task-store.js'
import type { StoredTask, TaskStep } from '../../../src/stores/task.js'
import { completedStep } from '../../fixtures/completed-step.js'
import { scriptedArms } from './arm-call-fixture.js'

const sql = await openSql({ dataDir: 'memory://' })
t.teardown(() => sql.close())
const store = new SqlTaskStore(sql)
const { task } = await store.create({ task_id: randomUUID(), tenant: 'computed', goal: 'Compute the 62nd Fibonacci number' })

function step(
  step_id: string,
  arm: string,
  tool: string,
  input: Record<string, unknown>,
  output: unknown,
  depends_on: string[] = [],
): TaskStep {
  return completedStep(step_id, arm, tool, output, depends_on, input)
}

async function guardianInput(scrub: TaskStep, steps: TaskStep[]): Promise<unknown> {
  const arms = scriptedArms(store, { guardian: () => ({ status: 'completed', output: {}, events: [] }) })
  const withPlan = { ...task, plan: { ...task.plan, steps: [...steps, scrub] } } as StoredTask
  await new ArmStepRunner(arms.deps).run(scrub, { goal: withPlan.goal, task: withPlan, depOutputs: {} }, new AbortController().signal)
  return arms.requests[0]?.input
}

const coder = step('s1', 'coder', 'generate', {}, { language: 'javascript', code: 'fibonacci(62)' })
// Printed in groups, so the detector reports it at the default threshold (a bare run of digits it does not).
const run = step('s2', 'executor', 'javascript', {}, { result: '4052 7395 3788 1', console: [] }, ['s1'])

t.test('a dependency scrub is told the computed numbers, whatever the plan wrote', async (t) => {
  const scrub = step('s3', 'guardian', 'scrub', { keep: ['4111111111111111'], mode: 'mask' }, null, ['s1', 's2'])
  t.same(await guardianInput(scrub, [coder, run]), { mode: 'mask', keep: ['4052 7395 3788 1'] })
})

t.test('a scrub of a given text keeps nothing', async (t) => {
  const scrub = step('s3', 'guardian', 'scrub', { text: 'card 4052739537881', keep: ['4052739537881'] }, null, ['s1', 's2'])
  t.same(await guardianInput(scrub, [coder, run]), { text: 'card 4052739537881', keep: [] })
})

t.test('other arms get their input as planned', async (t) => {
  const arms = scriptedArms(store, { executor: () => ({ status: 'completed', output: {}, events: [] }) })
  const shell = step('s4', 'executor', 'shell', { command: 'echo hi', keep: ['x'] }, null)
  await new ArmStepRunner(arms.deps).run(shell, { goal: 'g', task, depOutputs: {} }, new AbortController().signal)
  t.same(arms.requests[0]?.input, { command: 'echo hi', keep: ['x'] })
})
