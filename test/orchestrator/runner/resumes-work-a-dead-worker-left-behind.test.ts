// What a crashed worker leaves behind is picked up by the retries pg-boss sends: a task stuck in
// planning with its plan written goes on without a second plan; a step stuck running (its worker's
// lease is over) is taken over by the retried step job and the task completes. The real kill -9
// runs are in test/fault; this drives the same paths in one process.
import { randomUUID } from 'node:crypto'
import { AbortRegistry } from '../../../src/orchestrator/runner/abort-registry.js'
import { TASK_RUN } from '../../../src/orchestrator/runner/queues.js'
import type { RunnerContext } from '../../../src/orchestrator/runner/runner-context.js'
import { runStepJob } from '../../../src/orchestrator/runner/step-job.js'
import { DelayStepRunner } from '../../fixtures/delay-step-runner.js'
import { onEachDatabase } from '../../fixtures/each-database.js'
import { quietLog, RUNNER_TENANT, testDetector, waitFinal } from '../../fixtures/runner-node.js'

onEachDatabase('resumes work a dead worker left behind', async (t, db) => {
  const steps = new DelayStepRunner({ delayMs: 10 })
  const node = await db.node({ steps })
  const plan = [
    { step_id: 's1', action: 'Carry out: x', arm: 'executor' },
    { step_id: 's2', action: 'Scrub.', arm: 'guardian', depends_on: ['s1'] },
  ]

  // Died after writing the plan, before running: the task.run retry goes straight on.
  const planned = randomUUID()
  await node.store.create({ task_id: planned, tenant: RUNNER_TENANT, goal: 'run ls' })
  await node.store.transition(RUNNER_TENANT, planned, ['queued'], 'planning')
  await node.store.upsertSteps(RUNNER_TENANT, planned, plan)
  await node.queue.send(TASK_RUN, { task_id: planned, tenant: RUNNER_TENANT })
  const resumed = await waitFinal(node.store, planned)
  t.equal(resumed.status, 'completed')
  const types = (await node.store.eventsAfter(RUNNER_TENANT, planned, 0, 100)).map((e) => e.type)
  t.equal(types.filter((x) => x === 'task.plan').length, 1, 'the plan was not written twice')

  // Died while running s1: the step stays running with one execution counted.
  const stuck = randomUUID()
  await node.store.create({ task_id: stuck, tenant: RUNNER_TENANT, goal: 'run ls' })
  await node.store.transition(RUNNER_TENANT, stuck, ['queued'], 'planning')
  await node.store.upsertSteps(RUNNER_TENANT, stuck, plan)
  await node.store.transition(RUNNER_TENANT, stuck, ['planning'], 'running')
  t.equal((await node.store.claimStep(RUNNER_TENANT, stuck, 's1')).outcome, 'started', 'the dead worker had claimed s1')

  const ctx: RunnerContext = {
    store: node.store,
    queue: node.queue,
    sql: node.sql,
    detector: testDetector(),
    steps,
    planner: async () => plan,
    maxParallelArms: 4,
    log: quietLog,
    registry: new AbortRegistry(),
    stepTimeoutMs: 5000,
    stepRetryLimit: 2,
    taskRetryLimit: 2,
    stepLeaseSeconds: 3600,
    maxReplans: 1,
  }
  const job = (retryCount: number) => ({
    id: randomUUID(),
    queue: 'step.run',
    retryCount,
    signal: new AbortController().signal,
    data: { task_id: stuck, tenant: RUNNER_TENANT, step_id: 's1', ready_at: Date.now() },
  })
  await runStepJob(ctx, job(0))
  t.equal(steps.runs.filter((r) => r.task_id === stuck).length, 0, 'a first delivery does not touch a running step')
  await t.rejects(runStepJob(ctx, job(1)), /still leased/, 'a retry inside the lease backs off')
  t.equal(steps.runs.filter((r) => r.task_id === stuck).length, 0)

  await runStepJob({ ...ctx, stepLeaseSeconds: 0 }, job(1)) // the lease is over: take it over
  const done = await waitFinal(node.store, stuck)
  t.equal(done.status, 'completed', 'the rest of the task ran on the real queue')
  const { rows } = await node.sql.query<{ step_id: string; executions: number }>(
    'select step_id, executions from task_steps where task_id = $1 order by step_id',
    [stuck],
  )
  t.same(
    rows.map((r) => [r.step_id, Number(r.executions)]),
    [
      ['s1', 2],
      ['s2', 1],
    ],
    'only the lost attempt ran again',
  )
})
