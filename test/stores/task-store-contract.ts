/**
 * The one contract every TaskStore adapter passes (undici's cacheStoreTests, pg-boss's DB_TYPE runs).
 *
 * ```ts
 * await taskStoreContract(t, async () => { const sql = await openSql(...); return { store: new SqlTaskStore(sql), sql } })
 * ```
 *
 * One store per file: subtests share it and keep apart through fresh task ids and a fresh user_id
 * for the list tests, so a PGlite boot (seconds) is paid once. Tasks are in one tenant, but for the
 * test of tenancy, which makes two fresh ones.
 */
import { randomUUID } from 'node:crypto'
import { readdir } from 'node:fs/promises'
import type { Test } from 'tap'
import { migrate } from '../../src/stores/migrate.js'
import type { Sql } from '../../src/stores/sql.js'
import { PRIORITIES, type Priority } from '../../src/stores/task.js'
import { IdempotencyConflict, type NewTask, type TaskStore } from '../../src/stores/task-store.js'
import { ANY_TENANT, type TenantScope } from '../../src/stores/tenant.js'

export interface StoreUnderTest {
  store: TaskStore
  sql: Sql
  close(): Promise<void>
}

/** The tenant of every task these tests create, but for the tests of tenancy itself. */
const T = 'tenant-a'

const newTask = (extra: Partial<NewTask> = {}): NewTask => ({ task_id: randomUUID(), tenant: T, goal: 'summarise the report', ...extra })

export async function taskStoreContract(t: Test, open: () => Promise<StoreUnderTest>): Promise<void> {
  const { store, sql, close } = await open()
  t.teardown(close)

  await t.test('creates a task and reads it back as the task record', async (t) => {
    const input = newTask({ constraints: { max_tokens: 500 }, priority: 'high', acceptance_criteria: ['cites'], metadata: { a: 1 } })
    const { task, replayed } = await store.create(input)
    t.equal(replayed, false)
    t.equal(task.status, 'queued')
    t.same(task.constraints, { max_tokens: 500 })
    t.equal(task.priority, 'high')
    t.same(task.plan, { steps: [] })
    t.same(task.progress, { completed_steps: 0, total_steps: 0, percentage: 0 })
    t.same(task.usage, { llm_tokens: { prompt: 0, completion: 0, total: 0 }, arm_calls: 0 })
    t.equal(task.cached, false)
    t.equal(task.result, null)
    t.equal(task.error, null)
    t.match(task.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    t.equal(task.started_at, null)
    t.same(await store.get(T, input.task_id), task)
    t.equal(await store.get(T, randomUUID()), null)
    const events = await store.eventsAfter(T, input.task_id, 0, 10)
    t.same(
      events.map((e) => [e.seq, e.type]),
      [[1, 'task.created']],
    )
  })

  await t.test('keeps natural-language constraints given as a list', async (t) => {
    const { task } = await store.create(newTask({ constraints: ['be brief', 'cite sources'] }))
    t.same((await store.get(T, task.task_id))?.constraints, ['be brief', 'cite sources'])
  })

  await t.test('replays an idempotent create and refuses the key with another body', async (t) => {
    const key = randomUUID()
    const first = await store.create(newTask(), { idempotencyKey: key, requestHash: 'h1' })
    const again = await store.create(newTask(), { idempotencyKey: key, requestHash: 'h1' })
    t.equal(again.replayed, true)
    t.equal(again.task.task_id, first.task.task_id)
    const conflict = await store.create(newTask(), { idempotencyKey: key, requestHash: 'h2' }).catch((e: unknown) => e)
    t.ok(conflict instanceof IdempotencyConflict)
    t.equal((conflict as IdempotencyConflict).code, 'IDEMPOTENCY_CONFLICT')
    t.equal((conflict as IdempotencyConflict).taskId, first.task.task_id)
  })

  await t.test('creates one task when the same key arrives concurrently', async (t) => {
    const key = randomUUID()
    const results = await Promise.all(
      Array.from({ length: 5 }, () => store.create(newTask(), { idempotencyKey: key, requestHash: 'same' })),
    )
    t.equal(new Set(results.map((r) => r.task.task_id)).size, 1)
    t.equal(results.filter((r) => !r.replayed).length, 1)
  })

  await t.test('rolls the task back when the enqueue inside create fails', async (t) => {
    const input = newTask()
    let sawRow = false
    await t.rejects(
      store.create(input, {
        idempotencyKey: randomUUID(),
        enqueue: async (tx) => {
          sawRow = (await tx.query('select 1 from tasks where task_id = $1', [input.task_id])).rowCount === 1
          throw new Error('queue down')
        },
      }),
      /queue down/,
    )
    t.ok(sawRow, 'the enqueue ran inside the transaction that inserted the task')
    t.equal(await store.get(T, input.task_id), null)
  })

  await t.test('stores what the one-row insert always stored: JSON null context and result, completed_at for a final task', async (t) => {
    const queued = (await store.create(newTask())).task
    const cached = (await store.create(newTask({ status: 'completed', cached: true, result: { text: 'hi' }, context: { a: [1, 'x'] } })))
      .task
    const { rows } = await sql.query<{ task_id: string; context: string; result: string; done: boolean }>(
      `select task_id, jsonb_typeof(context) as context, jsonb_typeof(result) as result, completed_at is not null as done
         from tasks where task_id = any($1::text[]) order by task_id = $2 desc`,
      [[queued.task_id, cached.task_id], queued.task_id],
    )
    t.same(
      rows.map((r) => [r.context, r.result, r.done]),
      [
        ['null', 'null', false],
        ['object', 'object', true],
      ],
    )
    t.same(await store.get(T, cached.task_id), cached, 'the record from RETURNING is what a read gives')
    t.same(cached.context, { a: [1, 'x'] })
  })

  await t.test('creates a batch of tasks in one transaction, each with its task.created event', async (t) => {
    const inputs = [newTask({ priority: 'high', metadata: { n: 1 } }), newTask({ status: 'rejected', reason: 'no' }), newTask()]
    let seen = 0
    const created = await store.createBatch(inputs, async (tx) => {
      seen = Number(
        (
          await tx.query<{ n: number | string }>('select count(*) as n from tasks where task_id = any($1::text[])', [
            inputs.map((i) => i.task_id),
          ])
        ).rows[0]?.n,
      )
    })
    t.equal(seen, 3, 'the enqueue ran inside the transaction that inserted them')
    t.same(
      created.map((c) => [c.task_id, c.status, c.priority]),
      inputs.map((i) => [i.task_id, i.status ?? 'queued', i.priority ?? 'medium']),
      'records in input order',
    )
    for (const c of created) {
      t.same(await store.get(T, c.task_id), c)
      t.same(
        (await store.eventsAfter(T, c.task_id, 0, 10)).map((e) => [e.seq, e.type, e.data]),
        [[1, 'task.created', { status: c.status, priority: c.priority }]],
      )
    }
    t.same(await store.createBatch([]), [])
  })

  await t.test('a batch with one failing row, or a failing enqueue, commits none of its tasks', async (t) => {
    const existing = (await store.create(newTask())).task
    const fresh = newTask()
    await t.rejects(store.createBatch([fresh, { ...newTask(), task_id: existing.task_id }]))
    t.equal(await store.get(T, fresh.task_id), null)
    const other = newTask()
    await t.rejects(
      store.createBatch([other], async () => {
        throw new Error('queue down')
      }),
      /queue down/,
    )
    t.equal(await store.get(T, other.task_id), null)
  })

  await t.test('lists with filter, paging, total and every sort key', async (t) => {
    const user = randomUUID()
    const priorities: Priority[] = ['critical', 'low', 'high', 'medium', 'low']
    const ids: string[] = []
    for (const priority of priorities) {
      const { task } = await store.create(newTask({ user_id: user, priority }))
      ids.push(task.task_id)
      await new Promise((r) => setTimeout(r, 3)) // distinct created_at
    }
    await store.transition(T, ids[1]!, ['queued'], 'planning')

    const all = await store.list(T, { userId: user, limit: 10, offset: 0 })
    t.equal(all.total, 5)
    t.same(
      all.items.map((i) => i.task_id),
      [...ids].reverse(),
      'default: newest first',
    )

    const asc = await store.list(T, { userId: user, sortBy: 'created_at', order: 'asc', limit: 2, offset: 2 })
    t.equal(asc.total, 5)
    t.same(
      asc.items.map((i) => i.task_id),
      ids.slice(2, 4),
    )

    const beyond = await store.list(T, { userId: user, limit: 2, offset: 10 })
    t.same(beyond, { items: [], total: 5 })

    const byPriority = await store.list(T, { userId: user, sortBy: 'priority', order: 'desc', limit: 10, offset: 0 })
    t.same(
      byPriority.items.map((i) => i.priority),
      ['critical', 'high', 'medium', 'low', 'low'],
      'by rank, not alphabet',
    )
    t.same(PRIORITIES, ['low', 'medium', 'high', 'critical'])

    const byUpdated = await store.list(T, { userId: user, sortBy: 'updated_at', order: 'desc', limit: 1, offset: 0 })
    t.equal(byUpdated.items[0]?.task_id, ids[1], 'the task just moved is the most recently updated')

    const byStatus = await store.list(T, { userId: user, sortBy: 'status', order: 'asc', limit: 10, offset: 0 })
    t.same(
      byStatus.items.map((i) => i.status),
      ['planning', 'queued', 'queued', 'queued', 'queued'],
    )

    const planning = await store.list(T, { userId: user, status: 'planning', limit: 10, offset: 0 })
    t.equal(planning.total, 1)
    t.equal(planning.items[0]?.task_id, ids[1])
  })

  await t.test('transitions conditionally and never leaves a final state', async (t) => {
    const { task } = await store.create(newTask())
    const id = task.task_id
    t.equal(await store.transition(T, id, ['running'], 'completed'), null, 'wrong from-state: refused')
    const planning = await store.transition(T, id, ['queued'], 'planning')
    t.equal(planning?.status, 'planning')
    const running = await store.transition(T, id, ['planning'], 'running')
    t.ok(running?.started_at)
    const done = await store.transition(T, id, ['running'], 'completed', {
      result: { answer: 42 },
      usage: { llm_tokens: { prompt: 10, completion: 5, total: 15 }, arm_calls: 2 },
    })
    t.equal(done?.status, 'completed')
    t.same(done?.result, { answer: 42 })
    t.equal(done?.usage.arm_calls, 2)
    t.ok(done?.completed_at)
    t.ok((done?.version ?? 0) > task.version)
    t.equal(
      await store.transition(T, id, ['running'], 'failed', { error: { code: 'X', message: 'late', retryable: false } }),
      null,
      'a late worker cannot overwrite the final state',
    )
    t.equal((await store.get(T, id))?.status, 'completed')
    t.equal(await store.transition(T, randomUUID(), ['queued'], 'planning'), null)
    const types = (await store.eventsAfter(T, id, 0, 100)).map((e) => `${e.type}:${String(e.data.status ?? '')}`)
    t.same(types, ['task.created:queued', 'task.status:planning', 'task.status:running', 'task.status:completed'])
  })

  await t.test('lets exactly one of concurrent transitions win', async (t) => {
    const { task } = await store.create(newTask())
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, i) => store.transition(T, task.task_id, ['queued'], i % 2 ? 'planning' : 'cancelled')),
    )
    t.equal(outcomes.filter((o) => o !== null).length, 1)
    const events = await store.eventsAfter(T, task.task_id, 0, 100)
    t.equal(events.filter((e) => e.type === 'task.status').length, 1)
  })

  await t.test('cancels: queued ends at once, running goes to cancelling, finished is unchanged', async (t) => {
    const queued = (await store.create(newTask())).task
    const cancelled = await store.requestCancel(T, queued.task_id)
    t.equal(cancelled?.status, 'cancelled')
    t.ok(cancelled?.cancel_requested_at)
    t.ok(cancelled?.completed_at)
    t.equal(await store.transition(T, queued.task_id, ['queued'], 'planning'), null, 'a worker picking it up later is refused')

    const running = (await store.create(newTask())).task
    await store.transition(T, running.task_id, ['queued'], 'planning')
    t.equal((await store.requestCancel(T, running.task_id))?.status, 'cancelling')
    t.equal((await store.requestCancel(T, running.task_id))?.status, 'cancelling', 'repeat is harmless')
    t.equal((await store.transition(T, running.task_id, ['cancelling'], 'cancelled'))?.status, 'cancelled')

    const finished = await store.requestCancel(T, running.task_id)
    t.equal(finished?.status, 'cancelled')
    t.equal(await store.requestCancel(T, randomUUID()), null)
  })

  await t.test('records steps, starts each once, and reports progress', async (t) => {
    const { task } = await store.create(newTask())
    const id = task.task_id
    await store.transition(T, id, ['queued'], 'planning')
    t.equal(
      await store.upsertSteps(T, id, [
        { step_id: 's1', action: 'search', arm: 'retriever' },
        { step_id: 's2', action: 'write', arm: 'coder', depends_on: ['s1'] },
      ]),
      true,
    )
    await store.transition(T, id, ['planning'], 'running')
    const starts = await Promise.all([store.startStep(T, id, 's1'), store.startStep(T, id, 's1'), store.startStep(T, id, 's1')])
    t.equal(starts.filter((s) => s !== null).length, 1, 'only one worker begins a step')
    t.equal(await store.updateStep(T, id, 's1', ['pending'], 'completed'), null, 'wrong from-state: refused')
    const done = await store.updateStep(T, id, 's1', ['running'], 'completed', { output: { hits: 3 } })
    t.equal(done?.status, 'completed')
    t.same(done?.output, { hits: 3 })
    t.ok(done?.completed_at)
    const record = await store.get(T, id)
    t.same(
      record?.plan.steps.map((s) => [s.step_id, s.status, s.attempts]),
      [
        ['s1', 'completed', 1],
        ['s2', 'pending', 0],
      ],
    )
    t.same(record?.plan.steps[1]?.depends_on, ['s1'])
    t.same(record?.progress, { completed_steps: 1, total_steps: 2, percentage: 50 })
    const executions = await sql.query<{ executions: number }>("select executions from task_steps where task_id = $1 and step_id = 's1'", [
      id,
    ])
    t.equal(Number(executions.rows[0]?.executions), 1)

    await store.transition(T, id, ['running'], 'failed', { error: { code: 'ARM_FAILED', message: 'boom', retryable: true } })
    t.equal(await store.startStep(T, id, 's2'), null, 'no step starts on a final task')
    t.equal(await store.upsertSteps(T, id, [{ step_id: 's3', action: 'x', arm: 'judge' }]), false, 'no plan changes on a final task')
    const types = (await store.eventsAfter(T, id, 0, 100)).map((e) => e.type)
    t.same(types, ['task.created', 'task.status', 'task.plan', 'task.status', 'step.started', 'step.completed', 'task.status'])
  })

  await t.test('claims steps up to the per-task running limit, counted under the task lock', async (t) => {
    const { task } = await store.create(newTask())
    const id = task.task_id
    await store.transition(T, id, ['queued'], 'planning')
    const ids = ['s1', 's2', 's3', 's4', 's5', 's6']
    await store.upsertSteps(
      T,
      id,
      ids.map((step_id) => ({ step_id, action: 'work', arm: 'executor' })),
    )
    await store.transition(T, id, ['planning'], 'running')
    const claims = await Promise.all(ids.map((s) => store.claimStep(T, id, s, { maxRunning: 2 })))
    t.equal(claims.filter((c) => c.outcome === 'started').length, 2, 'two of six concurrent claims start')
    t.equal(claims.filter((c) => c.outcome === 'busy').length, 4, 'the others are told the task is busy')
    const started = claims.flatMap((c) => (c.outcome === 'started' ? [c.step.step_id] : []))
    await store.updateStep(T, id, started[0]!, ['running'], 'completed')
    const next = ids.find((s) => !started.includes(s))!
    t.equal((await store.claimStep(T, id, next, { maxRunning: 2 })).outcome, 'started', 'a finished step frees a slot')
    t.equal((await store.claimStep(T, id, next, { maxRunning: 2 })).outcome, 'unavailable', 'a running step is not claimed twice')
    t.equal(
      (await store.claimStep(T, id, next, { from: ['running'], staleAfterSeconds: 3600 })).outcome,
      'unavailable',
      'a running step that began recently is not taken over',
    )
    const restarted = await store.claimStep(T, id, next, { from: ['running'], maxRunning: 2, staleAfterSeconds: 0 })
    t.equal(restarted.outcome, 'started', 'a retry may restart a running step without counting it against itself')
    const { rows } = await sql.query<{ n: number | string }>(
      "select count(*) as n from task_steps where task_id = $1 and status = 'running'",
      [id],
    )
    t.equal(Number(rows[0]?.n), 2, 'never more than the limit running')
    await store.requestCancel(T, id)
    t.equal((await store.claimStep(T, id, 's6', { maxRunning: 9 })).outcome, 'unavailable', 'nothing starts on a cancelling task')
  })

  await t.test('a claim and a step move answer with the task as they left it, and mark it changed', async (t) => {
    const { task } = await store.create(newTask())
    const id = task.task_id
    await store.transition(T, id, ['queued'], 'planning')
    t.same(
      await store.claimStep(T, id, 's1', { taskFrom: ['running'] }),
      { outcome: 'unavailable', status: 'planning' },
      'taskFrom: no claim while the task is planning, and the claim says why',
    )
    await store.upsertSteps(
      T,
      id,
      ['s1', 's2'].map((step_id) => ({ step_id, action: 'work', arm: 'executor' })),
    )
    const running = await store.transition(T, id, ['planning'], 'running')
    const claim = await store.claimStep(T, id, 's1', { taskFrom: ['running'] })
    if (claim.outcome !== 'started') throw new Error(`claim ${claim.outcome}`)
    t.same(
      claim.task.plan.steps.map((s) => s.status),
      ['running', 'pending'],
      'the claimed step is running in the task it returns',
    )
    t.equal(claim.task.version, running!.version + 1, 'the claim bumps the version once')
    t.same(claim.task, await store.get(T, id), 'the returned task is the stored one')
    const moved = await store.moveStep(T, id, 's1', ['running'], 'completed', { output: { n: 1 } })
    t.same(
      moved?.task.plan.steps.map((s) => [s.status, s.output]),
      [
        ['completed', { n: 1 }],
        ['pending', null],
      ],
    )
    t.equal(moved?.task.version, claim.task.version + 1, 'the move bumps the version once')
    t.same(moved?.task, await store.get(T, id))
    t.equal(await store.moveStep(T, id, 's1', ['running'], 'failed'), null, 'a move from another state is refused')
    const types = (await store.eventsAfter(T, id, 0, 100)).map((e) => e.type)
    t.same(types.slice(-2), ['step.started', 'step.completed'], 'one event each')
    t.same(await store.claimStep(T, randomUUID(), 's1'), { outcome: 'unavailable', status: null }, 'no such task')
  })

  await t.test('settles pending steps in the same transition that finishes the task', async (t) => {
    const { task } = await store.create(newTask())
    const id = task.task_id
    await store.transition(T, id, ['queued'], 'planning')
    await store.upsertSteps(
      T,
      id,
      ['s1', 's2', 's3'].map((step_id) => ({ step_id, action: 'work', arm: 'executor' })),
    )
    await store.transition(T, id, ['planning'], 'running')
    await store.startStep(T, id, 's1')
    const failed = await store.transition(T, id, ['running'], 'failed', {
      settlePending: 'skipped',
      error: { code: 'X', message: 'x', retryable: false },
    })
    t.same(
      failed?.plan.steps.map((s) => s.status),
      ['running', 'skipped', 'skipped'],
      'running steps are left to their worker',
    )
    const types = (await store.eventsAfter(T, id, 0, 100)).map((e) => `${e.type}:${String(e.data.step_id ?? e.data.status)}`)
    t.same(types.slice(-3), ['step.skipped:s2', 'step.skipped:s3', 'task.status:failed'])
  })

  await t.test('numbers 50 concurrent appends 1..n without gaps or repeats', async (t) => {
    const { task } = await store.create(newTask())
    const appended = await Promise.all(
      Array.from({ length: 50 }, (_, i) => store.appendEvent(T, task.task_id, { type: 'budget.tokens', data: { i } })),
    )
    const seqs = appended.map((e) => e?.seq ?? 0).sort((a, b) => a - b)
    t.same(
      seqs,
      Array.from({ length: 50 }, (_, i) => i + 2),
      'task.created holds seq 1',
    )
    const stored = await store.eventsAfter(T, task.task_id, 0, 100)
    t.same(
      stored.map((e) => e.seq),
      Array.from({ length: 51 }, (_, i) => i + 1),
    )
    t.equal(await store.appendEvent(T, randomUUID(), { type: 'x' }), null)
  })

  await t.test('pages through events after a sequence number', async (t) => {
    const { task } = await store.create(newTask())
    for (let i = 0; i < 6; i++) await store.appendEvent(T, task.task_id, { type: 'guardrail.check', data: { i } })
    const first = await store.eventsAfter(T, task.task_id, 0, 3)
    t.same(
      first.map((e) => e.seq),
      [1, 2, 3],
    )
    const next = await store.eventsAfter(T, task.task_id, 3, 3)
    t.same(
      next.map((e) => e.seq),
      [4, 5, 6],
    )
    t.same(next[0]?.data, { i: 2 })
    t.match(next[0]?.created_at, /Z$/)
    t.same(
      (await store.eventsAfter(T, task.task_id, 7, 3)).map((e) => e.seq),
      [],
    )
  })

  await t.test('creates rejected and cached tasks as final records', async (t) => {
    const rejected = (await store.create(newTask({ status: 'rejected', reason: 'prompt injection (high)' }))).task
    t.equal(rejected.status, 'rejected')
    t.equal(rejected.reason, 'prompt injection (high)')
    t.ok(rejected.completed_at)
    const cached = (await store.create(newTask({ status: 'completed', cached: true, result: { text: 'hi' } }))).task
    t.equal(cached.cached, true)
    t.same(cached.result, { text: 'hi' })
    t.equal(
      await store.transition(T, cached.task_id, ['completed'], 'running'),
      null,
      'a final state is left by no transition, even one that names it',
    )
  })

  await t.test('a tenant sees, lists, changes and streams only its own tasks', async (t) => {
    // Two fresh tenants with the same goal, user and idempotency key: each is the other's stranger.
    const [a, b] = [`a-${randomUUID()}`, `b-${randomUUID()}`]
    const user = randomUUID()
    const same = { goal: 'the same goal in both', user_id: user, budget: { max_tokens: 100 } }
    const key = { idempotencyKey: 'the-same-key', requestHash: 'h' }
    const ours = (await store.create(newTask({ ...same, tenant: a }), key)).task
    const theirs = await store.create(newTask({ ...same, tenant: b }), key)
    t.equal(theirs.replayed, false, "the same key in another tenant is not a replay of the first tenant's task")
    t.not(theirs.task.task_id, ours.task_id)
    t.equal(
      (await store.create(newTask({ ...same, tenant: b }), { ...key, requestHash: 'other' }).catch((e: unknown) => e)) instanceof
        IdempotencyConflict,
      true,
      'but a conflict within its own tenant',
    )
    t.equal(ours.tenant, a, 'the stored task knows its tenant')
    const id = ours.task_id

    t.same(await store.get(a, id), ours)
    t.equal(await store.get(b, id), null, "another tenant's task is not there")
    t.same(await store.get(ANY_TENANT, id), ours, 'ANY_TENANT finds it')
    const listed = async (scope: TenantScope) =>
      (await store.list(scope, { userId: user, limit: 10, offset: 0 })).items.map((x) => x.task_id).sort()
    t.same(await listed(a), [id])
    t.same(await listed(b), [theirs.task.task_id])
    t.same(await listed(ANY_TENANT), [id, theirs.task.task_id].sort(), 'ANY_TENANT lists both')
    t.equal((await store.list(b, { userId: user, limit: 10, offset: 0 })).total, 1, 'the total counts its own only')

    // Every change another tenant asks for finds nothing and writes nothing.
    t.same(await store.eventsAfter(b, id, 0, 10), [])
    t.equal(await store.appendEvent(b, id, { type: 'guardrail.x' }), null)
    t.equal(await store.requestCancel(b, id), null)
    t.equal(await store.transition(b, id, ['queued'], 'planning'), null)
    t.equal(await store.upsertSteps(b, id, [{ step_id: 's1', action: 'x', arm: 'executor' }]), false)
    t.equal(await store.reserveTokens(b, id, 10), null)
    await store.settleTokens(b, id, 0, 50)
    t.same(await store.get(a, id), ours, 'the task is as it was')
    t.same(
      (await store.eventsAfter(a, id, 0, 10)).map((e) => e.type),
      ['task.created'],
    )

    // Its own tenant moves it on; steps and events are then refused to the other as well.
    await store.transition(a, id, ['queued'], 'planning')
    await store.upsertSteps(a, id, [{ step_id: 's1', action: 'x', arm: 'executor' }])
    await store.transition(a, id, ['planning'], 'running')
    t.same(await store.claimStep(b, id, 's1'), { outcome: 'unavailable', status: null })
    t.equal(await store.startStep(b, id, 's1'), null)
    t.ok(await store.startStep(a, id, 's1'))
    t.equal(await store.updateStep(b, id, 's1', ['running'], 'completed'), null)
    t.equal(await store.moveStep(b, id, 's1', ['running'], 'completed'), null)
    t.equal(await store.replan(b, id, [{ step_id: 's2', action: 'y', arm: 'judge' }], 'no', 1), false)
    t.equal((await store.get(a, id))?.plan.steps[0]?.status, 'running', 'the step is still running')
    t.equal((await store.reserveTokens(a, id, 100))?.granted, 100, 'no tokens were charged by the other tenant')
    t.equal((await store.requestCancel(ANY_TENANT, id))?.status, 'cancelling', 'ANY_TENANT may change it')
  })

  await t.test('runs migrations again as a no-op', async (t) => {
    t.same(await migrate(sql), [])
    const { rows } = await sql.query<{ name: string }>('select name from schema_migrations order by name')
    const files = (await readdir(new URL('../../migrations/', import.meta.url))).filter((f) => f.endsWith('.sql')).sort()
    t.same(
      rows.map((r) => r.name),
      files.map((f) => f.slice(0, -'.sql'.length)),
      'every file in migrations/, once',
    )
  })
}
