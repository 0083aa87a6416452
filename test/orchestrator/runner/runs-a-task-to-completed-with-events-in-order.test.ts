// A task goes queued → planning → running → completed through the real queue and store, its steps
// run in dependency order, and the event log tells the story in order.

import type { StoredTask } from '../../../src/stores/task.js'
import { DelayStepRunner } from '../../fixtures/delay-step-runner.js'
import { onEachDatabase } from '../../fixtures/each-database.js'
import { RUNNER_TENANT, waitFinal } from '../../fixtures/runner-node.js'

onEachDatabase('runs a task to completed with its events in order', async (t, db) => {
  const steps = new DelayStepRunner({ delayMs: 20 })
  const completed: StoredTask[] = []
  const calls: string[] = []
  const latencies: number[] = []
  const metrics = {
    stepStarted: (arm: string) => void calls.push(`started ${arm}`),
    stepFinished: (arm: string, status: string, seconds: number) => void calls.push(`${status} ${arm} ${seconds >= 0.015}`), // steps sleep 20 ms; timers may fire a millisecond early
    taskFinished: (status: string, seconds: number) => void calls.push(`task ${status} ${seconds > 0}`),
    dispatchLatency: (seconds: number) => void latencies.push(seconds),
    modelTokens: () => undefined, // the delay runner calls no arm
  }
  const node = await db.node({ steps, metrics, onCompleted: async (task) => void completed.push(task) })
  const submitted = await node.submit({ goal: 'run ls in the sandbox and mail ada@example.com' })
  const task = await waitFinal(node.store, submitted.task_id)

  t.equal(task.status, 'completed')
  t.same(
    task.plan.steps.map((s) => [s.step_id, s.arm, s.status, s.depends_on]),
    [
      ['s1', 'executor', 'completed', []],
      ['s2', 'guardian', 'completed', ['s1']],
    ],
  )
  t.notMatch(task.plan.steps[0]?.action ?? '', /ada@example\.com/, 'the plan holds the redacted goal')
  t.same(task.progress, { completed_steps: 2, total_steps: 2, percentage: 100 })
  t.match(task.result, { partial: false, final: { step_id: 's2' }, completed_steps: ['s1', 's2'] })
  t.same(task.usage, { llm_tokens: { prompt: 20, completion: 10, total: 30 }, arm_calls: 2 })
  t.ok(task.started_at && task.completed_at)
  t.equal(completed.length, 1, 'onCompleted called once')
  t.equal(completed[0]?.task_id, task.task_id)

  const events = await node.store.eventsAfter(RUNNER_TENANT, task.task_id, 0, 100)
  t.same(
    events.map((e) => e.seq),
    events.map((_, i) => i + 1),
    'numbered without gaps',
  )
  t.same(
    events.map((e) => [e.type, e.data.status ?? e.data.step_id ?? null]),
    [
      ['task.created', 'queued'],
      ['task.status', 'planning'],
      ['task.plan', null],
      ['task.status', 'running'],
      ['step.started', 's1'],
      ['step.completed', 'completed'],
      ['budget.usage', 's1'],
      ['step.started', 's2'],
      ['step.completed', 'completed'],
      ['budget.usage', 's2'],
      ['task.status', 'completed'],
    ],
  )
  t.same(
    calls,
    ['started executor', 'completed executor true', 'started guardian', 'completed guardian true', 'task completed true'],
    'metrics saw each step and the task',
  )
  t.equal(latencies.length, 2, 'a dispatch latency per step')
  t.ok(
    latencies.every((s) => s >= 0 && s < 5),
    `dispatch latencies ${latencies.map((s) => (s * 1000).toFixed(1)).join(', ')} ms`,
  )
  const s2 = steps.runs.find((r) => r.step_id === 's2')
  const s1 = steps.runs.find((r) => r.step_id === 's1')
  t.ok(s1 && s2 && s2.start >= s1.end, 's2 waited for s1')
})
