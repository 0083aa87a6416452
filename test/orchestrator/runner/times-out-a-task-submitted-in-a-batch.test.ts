import { AnswerKeys, CacheTier } from '@ganglion/reflex'
// TASK_TIMEOUT through the API's path: tasks submitted together through TaskService share a group
// commit, and each keeps its own delayed task.timeout job, which fires and ends the slow one.

import { TASK_TIMEOUT } from '../../../src/orchestrator/runner/queues.js'
import { TaskService } from '../../../src/orchestrator/task-service.js'
import { MemoryCacheStore } from '../../../src/stores/memory-cache-store.js'
import { DelayStepRunner } from '../../fixtures/delay-step-runner.js'
import { onEachDatabase } from '../../fixtures/each-database.js'
import { RUNNER_TENANT, testDetector, waitFinal, waitFor } from '../../fixtures/runner-node.js'

onEachDatabase('times out a task submitted in a batch', async (t, db) => {
  const steps = new DelayStepRunner({ delayMs: (s, input) => (s.step_id === 's2' && input.goal.includes('slow') ? 30_000 : 20) })
  const node = await db.node({ steps, runner: { stepTimeoutSeconds: 60 } })
  const batches: number[] = []
  const createBatch = node.store.createBatch.bind(node.store)
  node.store.createBatch = (tasks, enqueue) => {
    batches.push(tasks.length)
    return createBatch(tasks, enqueue)
  }
  const service = new TaskService({
    store: node.store,
    queue: node.queue,
    detector: testDetector(),
    cache: new MemoryCacheStore(new CacheTier()),
    answerKeys: new AnswerKeys('a test secret of sixteen bytes'),
    taskTimeoutSeconds: 60,
    cacheTtlSeconds: 60,
    quotas: { activePerTenant: 0, defaultMaxTokens: 20_000, maxTokens: 200_000, model: 'offline-extractive', price: undefined },
    batch: { maxInFlight: 1 },
  })
  const goals = ['run ls in the sandbox', 'run the slow ls in the sandbox', 'run pwd in the sandbox', 'run date in the sandbox']
  const created = await Promise.all(
    goals.map((goal) => service.create({ goal, budget: { max_time_seconds: goal.includes('slow') ? 2 : 60 } }, { tenant: RUNNER_TENANT })),
  )
  t.ok(
    batches.some((n) => n > 1),
    `submitted together, committed together (batches ${batches.join(', ')})`,
  )
  const slow = created[1]!.task

  const final = await waitFinal(node.store, slow.task_id, 15_000)
  t.equal(final.status, 'timed_out')
  t.match(final.error, { code: 'TIMEOUT' })
  t.ok(Date.parse(final.completed_at!) - Date.parse(final.created_at) < 6000, 'ended within a few seconds of its deadline')
  const fired = await waitFor('the task.timeout job to have run', async () => {
    const [job] = await node.queue.pgBoss.findJobs(TASK_TIMEOUT, { data: { task_id: slow.task_id } })
    return job?.state === 'completed' ? job : undefined
  })
  t.ok(fired, 'its own task.timeout job fired')
  for (const other of [created[0]!, created[2]!, created[3]!]) {
    t.equal((await waitFinal(node.store, other.task.task_id)).status, 'completed', 'the others were not touched')
  }
})
