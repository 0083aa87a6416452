/**
 * The `TaskPlanner` seam, and a deterministic planner from the reflex detector's routing hint for
 * running the lifecycle without arms (the runner's tests, the fault tests, the dispatch bench).
 * The service plans through the planner arm (arm-planner.ts). Same goal, same plan.
 *
 * ```ts
 * planSteps({ goal: redacted, suggestedArms: ['retriever', 'coder'], allowedArms: null, acceptanceCriteria: [] })
 * // s1 retriever, s2 coder (parallel) → s3 guardian (depends on s1, s2)
 * ```
 *
 * Shape: independent work steps run in parallel (a coder's code is run by an executor after it);
 * a judge checks them when there are acceptance criteria; a guardian scrubs the aggregate last. The
 * guardian is the system's own safety step, so `allowed_arms` cannot remove it.
 */
import type { Detector } from '@ganglion/reflex'
import type { StoredTask } from '../../stores/task.js'
import type { NewStep } from '../../stores/task-store.js'

/** Arms that do the work of a goal, in plan order. */
const WORK_ARMS = ['retriever', 'coder', 'executor'] as const

export interface PlanInput {
  /** Redacted: the plan's actions are stored and shown, so no raw personal data goes in. */
  goal: string
  suggestedArms: readonly string[]
  /** `constraints.allowed_arms`, or null when the task does not restrict arms. */
  allowedArms: readonly string[] | null
  acceptanceCriteria: readonly string[]
}

export function planSteps(input: PlanInput): NewStep[] {
  const allowed = (arm: string): boolean => input.allowedArms === null || input.allowedArms.includes(arm)
  const subject = brief(input.goal)
  let work: string[] = WORK_ARMS.filter((arm) => input.suggestedArms.includes(arm) && allowed(arm))
  if (work.length === 0) work = WORK_ARMS.filter(allowed).slice(-1) // executor, unless refused
  const steps: NewStep[] = []
  const id = (): string => `s${steps.length + 1}`
  const byArm = new Map<string, string>()
  for (const arm of work) {
    const step_id = id()
    const coder = byArm.get('coder')
    // Code is written before it is run; everything else is independent.
    const depends_on = arm === 'executor' && coder ? [coder] : []
    steps.push({ step_id, arm, action: ACTIONS[arm]!(subject), depends_on })
    byArm.set(arm, step_id)
  }
  let last = leaves(steps)
  if (input.acceptanceCriteria.length > 0 && allowed('judge')) {
    const step_id = id()
    steps.push({
      step_id,
      arm: 'judge',
      depends_on: last,
      action: `Check the results against ${input.acceptanceCriteria.length} acceptance criteria.`,
    })
    last = [step_id]
  }
  steps.push({ step_id: id(), arm: 'guardian', depends_on: last, action: 'Scrub personal data and secrets from the results.' })
  return steps
}

/**
 * Turns a task into its plan. `feedback` is set for the one re-plan after a failed validation: why
 * the last plan's result was refused.
 */
export type TaskPlanner = (task: StoredTask, feedback?: string) => Promise<NewStep[]>

export function heuristicPlanner(detector: Detector): TaskPlanner {
  return async (task) => planTask(task, detector).steps
}

/** Plans a stored task: redacts its goal and asks the reflex detector's routing hint for arms. */
export function planTask(task: StoredTask, detector: Detector): { goal: string; steps: NewStep[] } {
  const goal = detector.redact(task.goal).redacted_text
  const suggestedArms = detector.check(task.goal, { checkInjection: false }).routing.suggested_arms
  return { goal, steps: planSteps({ goal, suggestedArms, allowedArms: allowedArms(task), acceptanceCriteria: task.acceptance_criteria }) }
}

function allowedArms(task: StoredTask): string[] | null {
  const c = task.constraints
  if (Array.isArray(c)) return null // natural-language constraints name no arms
  const arms = c.allowed_arms
  return Array.isArray(arms) ? arms.filter((a): a is string => typeof a === 'string') : null
}

const ACTIONS: Record<string, (subject: string) => string> = {
  retriever: (s) => `Retrieve sources relevant to: ${s}`,
  coder: (s) => `Write code for: ${s}`,
  executor: (s) => `Carry out: ${s}`,
}

/** Steps nothing else depends on: what the next stage waits for. */
function leaves(steps: readonly NewStep[]): string[] {
  const used = new Set(steps.flatMap((s) => s.depends_on ?? []))
  return steps.filter((s) => !used.has(s.step_id)).map((s) => s.step_id)
}

function brief(goal: string): string {
  const oneLine = goal.replace(/\s+/g, ' ').trim()
  return oneLine.length <= 120 ? oneLine : `${oneLine.slice(0, 117)}...`
}
