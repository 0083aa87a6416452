/**
 * The seam between the lifecycle and whatever does a step's work: the arms in the service
 * (ArmStepRunner), scripted runners in the lifecycle's tests.
 *
 * ```ts
 * const { output } = await steps.run(step, { goal, task, depOutputs }, signal)
 * ```
 *
 * Contract: `run` honours `signal` (rejects promptly once it aborts) and throws `StepError`
 * (src/step-errors.ts) to say whether a failure is worth retrying. Any other thrown error counts as retryable.
 */
import type { StoredTask, TaskStep } from '../../stores/task.js'

export interface StepInput {
  /** The goal with personal data replaced by placeholders: nothing raw leaves for an arm. */
  goal: string
  task: StoredTask
  /** Outputs of the steps this one depends on, by step id. */
  depOutputs: Record<string, unknown>
}

export interface StepUsage {
  prompt: number
  completion: number
}

export interface StepResult {
  output: unknown
  /** Recorded as a `budget.usage` event; a runner that records usage itself leaves it out. */
  usage?: StepUsage
  /** Stored with the step: who produced the output (the arms' ProvenanceMetadata). */
  provenance?: unknown
}

export interface StepRunner {
  run(step: TaskStep, input: StepInput, signal: AbortSignal): Promise<StepResult>
}
