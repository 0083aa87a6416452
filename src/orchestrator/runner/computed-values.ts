/**
 * The numbers a task computed itself, which its final scrub leaves in its answer. "Compute the 62nd
 * Fibonacci number" answers 4052739537881, which passes the Luhn check with a Visa prefix: without
 * this, the guardian would answer `[CREDIT_CARD_1]`.
 *
 * ```ts
 * computedValues(detector, task, guardianStep) // ['4052739537881']
 * ```
 *
 * A value is kept only when all of these hold, so personal data that came into the task is always
 * redacted and cannot be laundered through a computation:
 * - it was found in the output of a computing step: a coder step, or an executor `javascript` step
 *   (QuickJS with no file system and no network), whose dependencies are all computing steps
 *   themselves, so nothing fetched, retrieved, read from a file or run through a command fed it;
 * - it is a number (digits with spaces, dots or dashes between them, an optional leading `+`):
 *   an address, a key or a name a step printed is never kept;
 * - neither it nor its digits appear in anything that came into the task: the goal, the
 *   constraints, the acceptance criteria, the context, the metadata, and the output of every other
 *   step (retrieved knowledge, fetched pages, command output, any registered arm's reply).
 * The step outputs stay in the record as produced; this only decides what the scrub may keep.
 */
import type { Detector } from '@ganglion/reflex'
import type { StoredTask, TaskStep } from '../../stores/task.js'

/** At most this many values are kept: a guardian input, not an unbounded list. */
export const MAX_KEPT = 200

const NUMBER = /^\+?\d+(?:[ .-]\d+)*$/

type Scan = Pick<Detector, 'redact'>

export function computedValues(
  detector: Scan,
  task: Pick<StoredTask, 'goal' | 'constraints' | 'acceptance_criteria' | 'context' | 'metadata' | 'plan'>,
  step: TaskStep,
): string[] {
  const steps = task.plan.steps.filter((s) => s.status !== 'skipped')
  const computing = computingSteps(steps)
  const found = new Set<string>()
  for (const dep of step.depends_on) {
    if (!computing.has(dep)) continue
    const output = steps.find((s) => s.step_id === dep)?.output
    for (const text of leaves(output)) {
      for (const m of detector.redact(text).pii_matches) if (NUMBER.test(m.matched_text)) found.add(m.matched_text)
    }
  }
  if (found.size === 0) return []
  const incoming = [task.goal, task.constraints, task.acceptance_criteria, task.context, task.metadata]
  for (const s of steps) if (!computing.has(s.step_id)) incoming.push(s.output)
  const texts = incoming.flatMap(leaves)
  const digits = texts.map((t) => t.replace(/\D+/g, ''))
  const kept: string[] = []
  for (const value of found) {
    const own = value.replace(/\D+/g, '')
    if (texts.some((t) => t.includes(value)) || digits.some((d) => d.includes(own))) continue
    kept.push(value)
    if (kept.length === MAX_KEPT) break
  }
  return kept
}

/** Steps whose output only code of the task's own made: coder steps and `javascript` runs, fed by nothing else. */
function computingSteps(steps: readonly TaskStep[]): Set<string> {
  const byId = new Map(steps.map((s) => [s.step_id, s]))
  const memo = new Map<string, boolean>()
  const visit = (id: string, depth: number): boolean => {
    const known = memo.get(id)
    if (known !== undefined) return known
    const s = byId.get(id)
    memo.set(id, false) // a cycle (never in a valid plan) computes nothing
    const own = s !== undefined && (s.arm === 'coder' || (s.arm === 'executor' && s.tool === 'javascript'))
    const ok = own && depth < steps.length && s.depends_on.every((d) => visit(d, depth + 1))
    memo.set(id, ok)
    return ok
  }
  return new Set(steps.filter((s) => visit(s.step_id, 0)).map((s) => s.step_id))
}

/** Every string leaf, and the long integers written as digits (the scrub reads those too). */
function leaves(value: unknown): string[] {
  const out: string[] = []
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const v = stack.pop()
    if (typeof v === 'string') out.push(v)
    else if (typeof v === 'number' && Number.isFinite(v)) out.push(String(v))
    else if (Array.isArray(v)) for (const item of v) stack.push(item)
    else if (v !== null && typeof v === 'object')
      for (const [k, item] of Object.entries(v)) {
        out.push(k)
        stack.push(item)
      }
  }
  return out
}
