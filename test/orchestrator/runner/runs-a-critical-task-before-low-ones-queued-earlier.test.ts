// A task's priority orders its jobs in the queue: on a busy worker pool, a critical task submitted
// after 50 low ones is planned before all of them, and its step runs before every low task's step
// that is waiting too.

import type { StepInput, StepResult, StepRunner } from '../../../src/orchestrator/runner/step-runner.js'
import type { StoredTask, TaskStep } from '../../../src/stores/task.js'
import type { NewStep } from '../../../src/stores/task-store.js'
import { DelayStepRunner } from '../../fixtures/delay-step-runner.js'
import { onEachDatabase } from '../../fixtures/each-database.js'
import { RUNNER_TENANT, waitFinal, waitFor } from '../../fixtures/runner-node.js'

const LOW_TASKS = 50
const HOLD = 'hold the worker'

/** Resolves when `open` is called. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open = (): void => {}
  const wait = new Promise<void>((resolve) => {
    open = resolve
  })
  return { wait, open }
}

onEachDatabase('a critical task submitted after 50 low ones starts before them', async (t, db) => {
  const planning = gate()
  const stepping = gate()
  const planned: string[] = []
  const planner = async (task: StoredTask): Promise<NewStep[]> => {
    if (task.goal === HOLD) await planning.wait
    planned.push(task.task_id)
    return [{ step_id: 's1', action: 'Work.', arm: 'executor' }]
  }
  const quick = new DelayStepRunner({ delayMs: 2 })
  const stepped: string[] = []
  const steps: StepRunner = {
    async run(step: TaskStep, input: StepInput, signal: AbortSignal): Promise<StepResult> {
      stepped.push(input.task.task_id)
      if (input.task.goal === HOLD) await stepping.wait
      return quick.run(step, input, signal)
    },
  }
  // One worker per queue: everything else waits in the queue behind the held task.
  const node = await db.node({ steps, planner, runner: { taskConcurrency: 1, stepConcurrency: 1 } })

  const held = await node.submit({ goal: HOLD, priority: 'low' }, 120)
  await waitFor('the held task to be planning', async () =>
    (await node.store.get(RUNNER_TENANT, held.task_id))?.status === 'planning' ? true : undefined,
  )
  const lows: StoredTask[] = []
  for (let i = 0; i < LOW_TASKS; i++) lows.push(await node.submit({ goal: `low task ${i}`, priority: 'low' }, 120))
  const critical = await node.submit({ goal: 'critical task', priority: 'critical' }, 120)

  // The planner worker is free again; the step worker is now held by the first task's step.
  planning.open()
  await waitFor('every task to be planned', async () => (planned.length === LOW_TASKS + 2 ? true : undefined), 60_000)
  t.equal(planned[0], held.task_id, 'the held task was planned first')
  t.equal(planned[1], critical.task_id, 'the critical task was planned next, before every low task queued before it')

  // Every step job is queued behind the held step now. The low steps run one by one after it;
  // a few of them are enough to see the order.
  stepping.open()
  const done = await waitFinal(node.store, critical.task_id, 60_000)
  t.equal(done.status, 'completed', 'the critical task completed')
  await waitFor('three low steps to have run', async () => (stepped.length >= 5 ? true : undefined), 60_000)
  t.equal(stepped[0], held.task_id, 'the held step ran first')
  t.equal(stepped[1], critical.task_id, "the critical task's step ran next, before every low task's step")

  // The stored times say the same.
  const stored = await Promise.all(lows.map((low) => node.store.get(RUNNER_TENANT, low.task_id)))
  const time = (iso: string | null | undefined): number => Date.parse(iso ?? '')
  t.ok(
    stored.every((low) => time(done.started_at) <= time(low?.started_at)),
    'started_at of the critical task is before every low one',
  )
  const lowStepStarts = stored.map((low) => low?.plan.steps[0]?.started_at).filter((at) => typeof at === 'string')
  t.ok(lowStepStarts.length >= 3, 'some low steps have started')
  t.ok(
    lowStepStarts.every((at) => time(done.plan.steps[0]?.started_at) <= time(at)),
    "the critical task's step started before every low task's step that has",
  )
})
