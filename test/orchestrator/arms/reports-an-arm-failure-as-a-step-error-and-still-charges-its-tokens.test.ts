// A failed arm call becomes a StepError with the arm's code and retryability; the tokens it spent
// are charged anyway, its events reach the task's log, and a budget refusal is logged as such.
import { randomUUID } from 'node:crypto'
import t from 'tap'
import { callArm } from '../../../src/orchestrator/runner/call-arm.js'
import { StepError } from '../../../src/step-errors.js'
import { openSql } from '../../../src/stores/open-sql.js'
import { SqlTaskStore } from '../../../src/stores/sql-task-store.js'
import { scriptedArms } from './arm-call-fixture.js'

const sql = await openSql({ dataDir: 'memory://' })
t.teardown(() => sql.close())
const store = new SqlTaskStore(sql)

const newTask = async () =>
  (await store.create({ task_id: randomUUID(), tenant: 'arm-calls', goal: 'g', budget: { max_tokens: 100 } })).task
const call = (task: Awaited<ReturnType<typeof newTask>>, arm: string) => ({
  task,
  stepId: 's2',
  arm,
  tool: 'generate',
  action: 'a',
  goal: 'g',
  input: {},
  depOutputs: {},
  signal: new AbortController().signal,
})

t.test('a failed step: code, retryability, tokens and events', async (t) => {
  const task = await newTask()
  const arms = scriptedArms(store, {
    coder: () => ({
      status: 'failed',
      error: { code: 'LLM_BUDGET_EXCEEDED', message: 'no tokens left', retryable: false },
      events: [{ type: 'guardrail.pii_redacted', data: { EMAIL: 1 } }],
      tokens: 40,
    }),
  })
  const err = await callArm(arms.deps, call(task, 'coder')).catch((e: unknown) => e)
  t.ok(err instanceof StepError)
  t.match(err, { code: 'LLM_BUDGET_EXCEEDED', retryable: false })
  const events = (await store.eventsAfter(task.tenant, task.task_id, 0, 50)).map((e) => [e.type, e.data])
  t.same(events.slice(1), [
    ['guardrail.pii_redacted', { step_id: 's2', EMAIL: 1 }],
    ['budget.usage', { step_id: 's2', prompt: 20, completion: 20, model: 'test/model' }],
    ['budget.exceeded', { step_id: 's2', allowance: 100 }],
  ])
  t.equal((await store.reserveTokens(task.tenant, task.task_id, 1000))?.granted, 60, '40 charged, the hold released')
})

t.test('unknown arms and unreachable ones', async (t) => {
  const task = await newTask()
  const arms = scriptedArms(store, {})
  await t.rejects(callArm(arms.deps, call(task, 'oracle')), { code: 'ARM_UNKNOWN', retryable: false })
  const down = { ...arms.deps, arms: { get: () => ({ execute: () => Promise.reject(new Error('ECONNREFUSED')) }) } }
  await t.rejects(callArm(down, call(task, 'coder')), { code: 'ARM_UNREACHABLE', retryable: true })
  const refused = Object.assign(new Error('token refused'), { code: 'UNAUTHORIZED', retryable: false })
  const strict = { ...arms.deps, arms: { get: () => ({ execute: () => Promise.reject(refused) }) } }
  await t.rejects(callArm(strict, call(task, 'coder')), { code: 'UNAUTHORIZED', retryable: false })
  t.equal((await store.reserveTokens(task.tenant, task.task_id, 1000))?.granted, 100, 'every hold released')
})
