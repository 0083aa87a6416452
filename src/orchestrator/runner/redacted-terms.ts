/**
 * The task's acceptance criteria and constraints as they leave for an arm: personal data replaced
 * by placeholders, the way the goal leaves (`detector.redact`, placeholder mode). Keys and
 * non-string values are kept, so `allowed_arms`, `max_tokens` and the output policy's shape stay as
 * given; the stored task keeps the client's own text.
 *
 * ```ts
 * redactedTerms(detector, { acceptance_criteria: ['mail ada@example.com'], constraints: { to: 'bob@example.com' } })
 * // { acceptance_criteria: ['mail [EMAIL_1]'], constraints: { to: '[EMAIL_1]' } }
 * ```
 */
import type { Detector } from '@ganglion/reflex'
import type { StoredTask, TaskConstraints } from '../../stores/task.js'

export interface RedactedTerms {
  acceptance_criteria: string[]
  constraints: TaskConstraints
}

export function redactedTerms(
  detector: Pick<Detector, 'redact'>,
  task: Pick<StoredTask, 'acceptance_criteria' | 'constraints'>,
): RedactedTerms {
  const redact = (text: string): string => detector.redact(text).redacted_text
  return {
    acceptance_criteria: task.acceptance_criteria.map(redact),
    // The reviver visits every value once, without recursion of ours on the client's nesting.
    constraints: JSON.parse(JSON.stringify(task.constraints), (_key, value: unknown) =>
      typeof value === 'string' ? redact(value) : value,
    ) as TaskConstraints,
  }
}
