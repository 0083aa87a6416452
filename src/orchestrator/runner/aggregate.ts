/**
 * The task result from its steps' outputs. A finished plan's result is the last step's output (the
 * guardian's scrubbed aggregate) and the plain answer read from it, beside every step's own; a
 * cancelled or timed-out task keeps what its completed steps produced, marked partial. Steps a
 * re-plan superseded (`skipped`) are neither missing work nor the last step.
 *
 * The judge's verdict is not the answer: it stands beside it as `verdict`, the output of the
 * plan's last judge step that completed (`{ passed: true, checks }`), null when the plan has none
 * (a verdict that did not pass fails its step, and the task's error says why).
 */
import type { TaskStep } from '../../stores/task.js'
import { answerOf } from './answer.js'

export interface TaskResult {
  partial: boolean
  /** The plain answer of the last step's output (answer.ts), or null. */
  answer: unknown
  /** The last completed judge step's output (`{ passed, checks }`), or null. */
  verdict: unknown
  /** The output of the plan's last step when it completed, else null. */
  final: unknown
  /** Completed steps' outputs by step id. */
  steps: Record<string, unknown>
  completed_steps: string[]
}

export function aggregate(steps: readonly TaskStep[]): TaskResult {
  const live = steps.filter((s) => s.status !== 'skipped')
  const completed = live.filter((s) => s.status === 'completed')
  const last = live.at(-1)
  const final = last?.status === 'completed' ? last.output : null
  const judged = completed.filter((s) => s.arm === 'judge').at(-1)
  return {
    partial: completed.length < live.length,
    answer: answerOf(final),
    verdict: judged?.output ?? null,
    final,
    steps: Object.fromEntries(completed.map((s) => [s.step_id, s.output])),
    completed_steps: completed.map((s) => s.step_id),
  }
}
