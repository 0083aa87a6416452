/**
 * The seam between the lifecycle and whatever plans a task: the planner arm in the service
 * (arm-planner.ts), a deterministic planner or a scripted plan in the lifecycle's tests.
 *
 * ```ts
 * const steps = await planner(task)                   // the first plan
 * const again = await planner(task, judgeMessage)    // the one re-plan after a failed validation
 * ```
 *
 * The goal must reach the plan redacted: the plan's actions are stored and shown. A planner throws
 * a `StepError` (src/step-errors.ts) to say whether trying again could help.
 */
import type { StoredTask } from '../../stores/task.js'
import type { NewStep } from '../../stores/task-store.js'

/**
 * Turns a task into its plan. `feedback` is set for the one re-plan after a failed validation: why
 * the last plan's result was refused.
 */
export type TaskPlanner = (task: StoredTask, feedback?: string) => Promise<NewStep[]>
