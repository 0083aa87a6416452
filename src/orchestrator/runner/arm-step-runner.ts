/**
 * Runs plan steps on the arms: the `StepRunner` the orchestrator uses once the arms exist. Each step
 * goes to its arm through `callArm` (token, budget share, events); the output and its provenance
 * come back for the step record.
 *
 * ```ts
 * const steps = new ArmStepRunner({ arms: registry, tokens: issuer, store, stepTimeoutMs: 60_000 })
 * ```
 */
import type { TaskStep } from '../../stores/task.js'
import { type CallArmDeps, callArm, usesModel } from './call-arm.js'
import { computedValues } from './computed-values.js'
import type { StepInput, StepResult, StepRunner } from './step-runner.js'

export class ArmStepRunner implements StepRunner {
  constructor(private readonly deps: CallArmDeps) {}

  async run(step: TaskStep, input: StepInput, signal: AbortSignal): Promise<StepResult> {
    const { output, provenance } = await callArm(this.deps, {
      task: input.task,
      stepId: step.step_id,
      arm: step.arm,
      tool: step.tool,
      action: step.action,
      goal: input.goal,
      input: guardianInput(this.deps, input, step),
      depOutputs: input.depOutputs,
      signal,
      share: modelShare(input.task.plan.steps, step),
    })
    return { output, provenance }
  }
}

/**
 * A scrub of the dependency outputs is told which numbers the task computed itself
 * (computed-values.ts), to leave in the answer. The list is always the runner's own: whatever a
 * plan wrote under `keep` is replaced, and a scrub of a given text keeps nothing.
 */
function guardianInput(deps: CallArmDeps, input: StepInput, step: TaskStep): Record<string, unknown> {
  if (step.arm !== 'guardian' || (step.tool ?? 'scrub') !== 'scrub') return step.input
  const { keep: _planned, ...rest } = step.input
  return { ...rest, keep: rest.text === undefined ? computedValues(deps.detector, input.task, step) : [] }
}

/**
 * Model-using steps that could hold budget at the same time as this one: the unfinished ones. Each
 * takes an equal share of what is left, so one early step cannot starve the rest of the plan.
 */
function modelShare(steps: readonly TaskStep[], step: TaskStep): number {
  const open = steps.filter((s) => (s.status === 'pending' || s.status === 'running' || s.step_id === step.step_id) && usesModel(s.arm))
  return Math.max(1, open.length)
}
