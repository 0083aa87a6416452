// Each arm call holds an equal share of what is left of the task's budget (model-free arms hold
// none), is sent a token scoped to its arm, task (and its tenant), step and tool, and settles what it really spent.
import { randomUUID } from 'node:crypto'
import t from 'tap'
import { callArm } from '../../../src/orchestrator/runner/call-arm.js'
import { openSql } from '../../../src/stores/open-sql.js'
import { SqlTaskStore } from '../../../src/stores/sql-task-store.js'
import type { NewTask } from '../../../src/stores/task-store.js'
import { scriptedArms } from './arm-call-fixture.js'

const sql = await openSql({ dataDir: 'memory://' })
t.teardown(() => sql.close())
const store = new SqlTaskStore(sql)
const TENANT = 'arm-calls'

async function task(extra: Partial<NewTask>) {
  const { task } = await store.create({ task_id: randomUUID(), tenant: TENANT, goal: 'g', ...extra })
  return task
}
const call = (t: Awaited<ReturnType<typeof task>>, arm: string, share = 1) => ({
  task: t,
  stepId: 's1',
  arm,
  tool: null,
  action: 'do it',
  goal: 'redacted goal',
  input: { q: 1 },
  depOutputs: { s0: 'x' },
  signal: new AbortController().signal,
  share,
})

t.test('a model arm gets its share; the token names exactly this call', async (t) => {
  const budgeted = await task({ budget: { max_tokens: 900 }, acceptance_criteria: ['has 42'] })
  const arms = scriptedArms(store, { retriever: () => ({ status: 'completed', output: { hits: [] }, events: [], tokens: 120 }) })
  const done = await callArm(arms.deps, call(budgeted, 'retriever', 3))
  t.same(done.output, { hits: [] })
  t.equal(done.provenance.token_id, 'jti-1')
  t.same(
    arms.tokens,
    [{ arm: 'retriever', taskId: budgeted.task_id, tenant: TENANT, stepId: 's1', scope: ['search'], ttlSeconds: 30 }],
    "the arm's first tool when the step names none",
  )
  const sent = arms.requests[0]
  t.equal(sent?.budget.max_tokens, 300, 'a third of 900')
  t.same(sent?.context, { dep_outputs: { s0: 'x' }, acceptance_criteria: ['has 42'], constraints: {} })
  t.equal(sent?.goal, 'redacted goal')
  t.same(
    await store.reserveTokens(TENANT, budgeted.task_id, 10_000),
    { granted: 780, limit: 900, used: 120 },
    'the hold was released and the 120 spent charged',
  )
  const usage = (await store.eventsAfter(TENANT, budgeted.task_id, 0, 50)).filter((e) => e.type === 'budget.usage')
  t.same(
    usage.map((e) => e.data),
    [{ step_id: 's1', prompt: 60, completion: 60, model: 'test/model' }],
  )
})

t.test('a model-free arm holds nothing; a task without a budget sends no limit', async (t) => {
  const budgeted = await task({ constraints: { max_tokens: 50 } })
  const free = await task({})
  const arms = scriptedArms(store, { executor: () => ({ status: 'completed', output: 1, events: [] }) })
  await callArm(arms.deps, call(budgeted, 'executor'))
  await callArm(arms.deps, call(free, 'executor'))
  t.same(
    arms.requests.map((r) => r.budget.max_tokens),
    [0, null],
  )
  t.equal((await store.reserveTokens(TENANT, budgeted.task_id, 50))?.granted, 50, 'nothing was held or charged')
})
