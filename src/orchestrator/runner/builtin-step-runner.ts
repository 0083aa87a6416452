/**
 * A step runner for the lifecycle without arms (the runner's tests, the dispatch bench): the
 * guardian really scrubs personal data from what the other steps produced; every other arm returns
 * an honest record saying no arm ran. The service runs steps on the arms (ArmStepRunner).
 */
import type { Detector } from '@ganglion/reflex'
import type { TaskStep } from '../../stores/task.js'
import type { StepInput, StepResult, StepRunner } from './step-runner.js'

export class BuiltinStepRunner implements StepRunner {
  constructor(private readonly detector: Detector) {}

  async run(step: TaskStep, input: StepInput, signal: AbortSignal): Promise<StepResult> {
    signal.throwIfAborted()
    if (step.arm === 'guardian') {
      return { output: { arm: 'guardian', action: step.action, scrubbed: this.scrub(input.depOutputs) } }
    }
    return { output: { arm: step.arm, action: step.action, note: 'built-in step runner: no arm was called' } }
  }

  /** Redacts every string leaf, so the structure (and valid JSON) survives the scrub. */
  private scrub(value: unknown): unknown {
    if (typeof value === 'string') return this.detector.redact(value).redacted_text
    if (Array.isArray(value)) return value.map((v) => this.scrub(v))
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.scrub(v)]))
    }
    return value
  }
}
