/**
 * The task result from its steps' outputs. A finished plan's result is the last step's output (the
 * guardian's scrubbed aggregate) beside every step's own; a cancelled or timed-out task keeps what
 * its completed steps produced, marked partial.
 */
import type { TaskStep } from '../../stores/task.js';

export interface TaskResult {
  partial: boolean;
  /** The output of the plan's last step when it completed, else null. */
  final: unknown;
  /** Completed steps' outputs by step id. */
  steps: Record<string, unknown>;
  completed_steps: string[];
}

export function aggregate(steps: readonly TaskStep[]): TaskResult {
  const completed = steps.filter((s) => s.status === 'completed');
  const last = steps.at(-1);
  return {
    partial: completed.length < steps.length,
    final: last?.status === 'completed' ? last.output : null,
    steps: Object.fromEntries(completed.map((s) => [s.step_id, s.output])),
    completed_steps: completed.map((s) => s.step_id),
  };
}
