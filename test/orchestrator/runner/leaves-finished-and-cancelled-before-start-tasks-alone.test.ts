// Jobs that arrive for a task that is already over change nothing: a task cancelled while queued
// is never planned or run, and the timeout job of a task that completed in time is a no-op.
import { randomUUID } from 'node:crypto'
import { enqueueTask } from '../../../src/orchestrator/runner/queues.js'
import { DelayStepRunner } from '../../fixtures/delay-step-runner.js'
import { onEachDatabase } from '../../fixtures/each-database.js'
import { RUNNER_TENANT, waitFinal } from '../../fixtures/runner-node.js'

onEachDatabase('leaves finished tasks and tasks cancelled before they started alone', async (t, db) => {
  const steps = new DelayStepRunner({ delayMs: 10 })
  const node = await db.node({ steps })
  // Created cancelled-before-start: the store cancels a queued task at once; its task.run job follows.
  const early = await node.store.create({ task_id: randomUUID(), tenant: RUNNER_TENANT, goal: 'run ls' })
  t.equal((await node.store.requestCancel(RUNNER_TENANT, early.task.task_id))?.status, 'cancelled')
  await node.sql.transaction((tx) =>
    enqueueTask(node.queue, tx, { task_id: early.task.task_id, tenant: RUNNER_TENANT, timeout_seconds: 1 }),
  )

  // Ten milliseconds of work against a five-second limit: it completes in time even on a busy
  // machine, and its timeout job still fires while the test waits.
  const submitted = Date.now()
  const quick = await node.submit({}, 5)
  const done = await waitFinal(node.store, quick.task_id)
  t.equal(done.status, 'completed')
  await new Promise((r) => setTimeout(r, Math.max(0, submitted + 7000 - Date.now()))) // both timeout jobs have fired

  const after = await node.store.get(RUNNER_TENANT, quick.task_id)
  t.equal(after?.status, 'completed', 'the late timeout job did not touch the completed task')
  t.equal(after?.version, done.version, 'not even a write')
  const cancelled = await node.store.get(RUNNER_TENANT, early.task.task_id)
  t.equal(cancelled?.status, 'cancelled')
  t.equal(cancelled?.plan.steps.length, 0, 'never planned')
  t.notOk(
    steps.runs.some((r) => r.task_id === early.task.task_id),
    'never ran',
  )
  t.same(
    (await node.store.eventsAfter(RUNNER_TENANT, early.task.task_id, 0, 10)).map((e) => e.type),
    ['task.created', 'task.status'],
  )
})
