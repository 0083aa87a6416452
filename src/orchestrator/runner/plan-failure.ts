/**
 * The task's error when planning fails for good. A failure of the model keeps its own code, so a
 * client can tell a spent budget (`LLM_BUDGET_EXCEEDED`) or a model that did not answer in time
 * (`LLM_UNAVAILABLE`) from a plan that could not be made. The planner's refusals of the goal itself
 * (`MODEL_REQUIRED`, `PLAN_NOT_POSSIBLE`) keep theirs too, final, since they say what to change;
 * anything else is `PLAN_FAILED` with the planner's message.
 *
 * ```ts
 * planFailure(new StepError('LLM_BUDGET_EXCEEDED', 'token budget exhausted…'), false) // { code: 'LLM_BUDGET_EXCEEDED', … }
 * planFailure(new StepError('PLAN_INVALID', 'step s2 depends on s3…'), false)         // { code: 'PLAN_FAILED', … }
 * ```
 */
import { type FixedCode, STEP_ERRORS, StepError, type StepFailure, stepFailure } from '../../step-errors.js'

/** The planner's refusals of the goal itself. */
const GOAL_REFUSALS: readonly FixedCode[] = ['MODEL_REQUIRED', 'PLAN_NOT_POSSIBLE']

export function planFailure(err: unknown, retryable: boolean): StepFailure {
  const message = err instanceof Error ? err.message : String(err)
  if (err instanceof StepError && err.code.startsWith('LLM_') && Object.hasOwn(STEP_ERRORS, err.code))
    return { code: err.code, message, retryable }
  const refusal = err instanceof StepError ? GOAL_REFUSALS.find((c) => c === err.code) : undefined
  if (refusal) return stepFailure(refusal, message)
  return stepFailure('PLAN_FAILED', message, retryable)
}
