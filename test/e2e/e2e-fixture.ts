// The whole service as `npm start` runs it (orchestrator and reflex layer in one process, PGlite
// in memory, the six arms in-process, the offline model), and the helpers every end-to-end test
// uses: submit a task, wait for its end, read its event log.
import type { Test } from 'tap'
import { FINAL, postJson, startServices, waitForTask } from '../helpers/servers.js'

interface Teardown {
  teardown(fn: () => unknown): void
}

export interface Sse {
  id: number
  event: string
  data: Record<string, any>
}

/** The orchestrator's base URL, with every service of `npm start` running. */
export async function startGanglion(t: Teardown, env: Record<string, string> = {}): Promise<string> {
  const running = await startServices(t, { reflex: true, orchestrator: true }, env)
  return `http://127.0.0.1:${running.ports.orchestrator}`
}

/** Submits a task and returns its record once final (generous: a loaded CI machine starts QuickJS workers slowly). */
export async function runTask(base: string, body: Record<string, unknown>, timeoutMs = 90_000): Promise<Record<string, any>> {
  const res = await postJson(`${base}/api/v1/tasks`, body)
  if (res.status !== 201) throw new Error(`submit answered ${res.status}: ${await res.text()}`)
  const task = (await res.json()) as { task_id: string }
  return waitForTask(base, task.task_id, (x) => FINAL.includes(x.status), timeoutMs)
}

/** The task's whole event log, read through the SSE route (it ends once the task is final). */
export async function eventsOf(base: string, taskId: string): Promise<Sse[]> {
  const text = await (await fetch(`${base}/api/v1/tasks/${taskId}/events`)).text()
  return text
    .split('\n\n')
    .filter((block) => block.includes('data:'))
    .map((block) => {
      const field = (name: string) =>
        block
          .split('\n')
          .find((l) => l.startsWith(`${name}: `))
          ?.slice(name.length + 2) ?? ''
      return { id: Number(field('id')), event: field('event'), data: JSON.parse(field('data')) }
    })
}

/** `arm/tool` of each step, in plan order. */
export function armsOf(task: Record<string, any>): string[] {
  return (task.plan.steps as Array<{ arm: string; tool: string | null }>).map((s) => `${s.arm}/${s.tool}`)
}

/** The output of the first completed step of this arm and tool. */
export function outputOf(task: Record<string, any>, armTool: string): any {
  const step = (task.plan.steps as Array<{ arm: string; tool: string | null; status: string; output: unknown }>).find(
    (s) => `${s.arm}/${s.tool}` === armTool && s.status === 'completed',
  )
  return step?.output
}

/** The events every completed task's log must hold, in order: created, planned, each step started and completed, completed. */
export function checkFullLog(t: Test, task: Record<string, any>, events: Sse[]): void {
  t.same(
    events.map((e) => e.id),
    events.map((_, i) => i + 1),
    'event ids are 1, 2, 3…',
  )
  const types = events.map((e) => e.event)
  t.ok(types[0] === 'task.created', 'the log starts with task.created')
  t.ok(types.includes('task.planned'), 'the plan is logged with its source')
  for (const step of task.plan.steps as Array<{ step_id: string }>) {
    const started = events.findIndex((e) => e.event === 'step.started' && e.data.step_id === step.step_id)
    const completed = events.findIndex((e) => e.event === 'step.completed' && e.data.step_id === step.step_id)
    t.ok(started >= 0 && completed > started, `step ${step.step_id} started, then completed`)
  }
  const last = events.at(-1)
  t.ok(last?.event === 'task.status' && last.data.status === 'completed', 'the log ends with the task completed')
}
