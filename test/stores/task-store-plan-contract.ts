/**
 * The TaskStore contract, part two: what the arms need from the store — step tools, inputs and
 * provenance, the token ledger of a task's budget, and the one re-plan after a failed validation.
 * Run beside `taskStoreContract` against every adapter, on the same store.
 */
import { randomUUID } from 'node:crypto'
import type { Test } from 'tap'
import type { NewTask, TaskStore } from '../../src/stores/task-store.js'

/** The tenant of every task these tests create, but for the tests of tenancy itself. */
const T = 'tenant-a'

const newTask = (extra: Partial<NewTask> = {}): NewTask => ({ task_id: randomUUID(), tenant: T, goal: 'count the lines', ...extra })

async function running(store: TaskStore, extra: Partial<NewTask> = {}): Promise<string> {
  const { task } = await store.create(newTask(extra))
  await store.transition(T, task.task_id, ['queued'], 'planning')
  await store.transition(T, task.task_id, ['planning'], 'running')
  return task.task_id
}

export async function taskStorePlanContract(t: Test, store: TaskStore): Promise<void> {
  await t.test("keeps each step's tool, input and provenance", async (t) => {
    const id = await running(store)
    await store.upsertSteps(T, id, [
      { step_id: 's1', action: 'count', arm: 'executor', tool: 'shell', input: { command: 'wc', args: ['-l'] } },
      { step_id: 's2', action: 'scrub', arm: 'guardian', depends_on: ['s1'] },
    ])
    await store.startStep(T, id, 's1')
    const provenance = { arm: 'executor', tool: 'shell', token_id: 'j1' }
    const done = await store.updateStep(T, id, 's1', ['running'], 'completed', { output: { stdout: '2\n' }, provenance })
    t.same(done?.provenance, provenance)
    const steps = (await store.get(T, id))?.plan.steps
    t.same(
      steps?.map((s) => [s.tool, s.input, s.provenance]),
      [
        ['shell', { command: 'wc', args: ['-l'] }, provenance],
        [null, {}, null],
      ],
    )
  })

  await t.test('grants no more tokens than the smaller budget leaves, and settles real usage', async (t) => {
    const id = await running(store, { constraints: { max_tokens: 1000 }, budget: { max_tokens: 600 } })
    t.same(await store.reserveTokens(T, id, 400), { granted: 400, limit: 600, used: 0 })
    t.same(await store.reserveTokens(T, id, 400), { granted: 200, limit: 600, used: 0 }, 'what the first hold left')
    t.same(await store.reserveTokens(T, id, 50), { granted: 0, limit: 600, used: 0 }, 'nothing left while both are held')
    await store.settleTokens(T, id, 400, 150)
    t.same(await store.reserveTokens(T, id, 1000), { granted: 250, limit: 600, used: 150 })
  })

  await t.test('splits what is left by the share of calls that may run beside each other', async (t) => {
    const id = await running(store, { budget: { max_tokens: 900 } })
    t.equal((await store.reserveTokens(T, id, 10_000, 3))?.granted, 300)
    t.equal((await store.reserveTokens(T, id, 10_000, 2))?.granted, 300)
    t.equal((await store.reserveTokens(T, id, 10_000, 1))?.granted, 300)
  })

  await t.test('never over-grants to concurrent reservations', async (t) => {
    const id = await running(store, { budget: { max_tokens: 1000 } })
    const grants = await Promise.all(Array.from({ length: 12 }, () => store.reserveTokens(T, id, 300)))
    t.equal(
      grants.reduce((n, g) => n + (g?.granted ?? 0), 0),
      1000,
    )
  })

  await t.test('holds and settles a cost budget in dollars at the price per token', async (t) => {
    // $1 at $0.01 a token buys 100 tokens; the token budget (1000) is not what binds.
    const id = await running(store, { budget: { max_tokens: 1000, max_cost_usd: 1 } })
    t.same(await store.reserveTokens(T, id, 60, 1, 0.01), { granted: 60, limit: 1000, used: 0, heldUsd: 0.6 })
    t.same(await store.reserveTokens(T, id, 60, 1, 0.01), { granted: 40, limit: 1000, used: 0, heldUsd: 0.4 }, 'what the dollars left buy')
    await store.settleTokens(T, id, 60, 30, { heldUsd: 0.6, spentUsd: 0.15 })
    t.same(await store.reserveTokens(T, id, 1000, 1, 0.01), { granted: 45, limit: 1000, used: 30, heldUsd: 0.45 }, '$0.45 left after both')
    t.same(
      await store.reserveTokens(T, id, 1000),
      { granted: 885, limit: 1000, used: 30 },
      'without a price only tokens bind (85 still held)',
    )
    const none = await running(store, { budget: { max_cost_usd: 0.05 } })
    t.same(await store.reserveTokens(T, none, 10, 1, 0.01), { granted: 5, limit: null, used: 0, heldUsd: 0.05 }, 'a cost alone bounds too')
    t.equal((await store.reserveTokens(T, none, 10, 1, 0.01))?.granted, 0, 'and then nothing is left')
  })

  await t.test("counts a tenant's active tasks up to a bound, and finds a used idempotency key", async (t) => {
    const tenant = `quota-${randomUUID()}`
    for (let i = 0; i < 3; i++) await store.create({ ...newTask(), tenant })
    await store.create({ ...newTask(), tenant, status: 'completed' })
    await store.create({ ...newTask(), tenant, status: 'rejected', reason: 'r' })
    t.equal(await store.countActive(tenant, 10), 3, 'final tasks do not count')
    t.equal(await store.countActive(tenant, 2), 2, 'the count stops at the bound')
    t.equal(await store.countActive(`other-${tenant}`, 10), 0, 'another tenant has none')
    const { task } = await store.create({ ...newTask(), tenant }, { idempotencyKey: 'k', requestHash: 'h' })
    t.same((await store.replayOf(tenant, 'k', 'h'))?.task.task_id, task.task_id)
    t.equal(await store.replayOf(tenant, 'unused', 'h'), null)
    t.equal(await store.replayOf(`other-${tenant}`, 'k', 'h'), null, "another tenant's key is not there")
    await t.rejects(store.replayOf(tenant, 'k', 'other'), { code: 'IDEMPOTENCY_CONFLICT' })
  })

  await t.test('holds nothing back for a task without a budget, and reports a missing task', async (t) => {
    const id = await running(store, { constraints: ['be brief'] })
    t.same(await store.reserveTokens(T, id, 500), { granted: null, limit: null, used: 0 })
    t.equal(await store.reserveTokens(T, randomUUID(), 5), null)
  })

  await t.test('re-plans once: unfinished steps are superseded, new ones appended', async (t) => {
    const id = await running(store)
    await store.upsertSteps(T, id, [
      { step_id: 's1', action: 'work', arm: 'executor' },
      { step_id: 's2', action: 'check', arm: 'judge', depends_on: ['s1'] },
      { step_id: 's3', action: 'scrub', arm: 'guardian', depends_on: ['s2'] },
    ])
    for (const s of ['s1', 's2']) await store.startStep(T, id, s)
    await store.updateStep(T, id, 's1', ['running'], 'completed', { output: 1 })
    const failure = { code: 'VALIDATION_FAILED', message: 'missing "42"', retryable: false }
    await store.updateStep(T, id, 's2', ['running'], 'failed', { error: failure })
    const again = [{ step_id: 'r1s1', action: 'work again', arm: 'executor' }]
    t.equal(await store.replan(T, id, again, failure.message, 1), true)
    t.equal(await store.replan(T, id, again, failure.message, 1), false, 'only once')
    const steps = (await store.get(T, id))?.plan.steps ?? []
    t.same(
      steps.map((s) => [s.step_id, s.status]),
      [
        ['s1', 'completed'],
        ['s2', 'skipped'],
        ['s3', 'skipped'],
        ['r1s1', 'pending'],
      ],
    )
    t.same(steps[1]?.error, failure, 'the failure that caused it is kept')
    const events = (await store.eventsAfter(T, id, 0, 100)).map((e) => e.type)
    t.same(events.slice(-3), ['step.skipped', 'step.skipped', 'task.replanned'])
  })

  await t.test('does not re-plan a task that is not running', async (t) => {
    const { task } = await store.create(newTask())
    t.equal(await store.replan(T, task.task_id, [], 'x', 1), false)
  })
}
