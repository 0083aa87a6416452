/**
 * The plain answer of a finished plan, read from the guardian's scrubbed output, so a client reads
 * `result.answer` instead of digging through each arm's output shape. The step outputs stay in the
 * record as they were produced (`plan.steps[].output`, `result.final`).
 *
 * ```ts
 * answerOf({ scrubbed: { s1: { exit_code: 0, stdout: '3\n', stderr: '' } }, redactions: 0 }) // '3\n'
 * answerOf({ scrubbed: { s1: { hits: [...], summary: 'Refunds within 30 days…' } } })    // 'Refunds within 30 days…'
 * answerOf({ text: 'Mail [EMAIL_1]', redactions: 1 })                                      // 'Mail [EMAIL_1]'
 * ```
 *
 * What counts as the answer of each arm's output: a summary (retriever), a script's result, a
 * command's stdout, a fetched body, a coder's code when nothing ran it, a guardian's text. A
 * judge's verdict is not an answer (it says whether the others are right); anything unrecognised is
 * its own answer. Several work steps give an object keyed by step id.
 */

type Json = Record<string, unknown>

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

export function answerOf(final: unknown): unknown {
  if (!isObject(final)) return final ?? null
  const scrubbed = final.scrubbed
  if (isObject(scrubbed)) {
    const answers = Object.entries(scrubbed)
      .filter(([, out]) => !isVerdict(out))
      .map(([id, out]) => [id, one(out)] as const)
    if (answers.length === 1) return answers[0]![1]
    return answers.length === 0 ? null : Object.fromEntries(answers)
  }
  return one(final)
}

/** A judge's output: `{ passed, checks }`. */
function isVerdict(out: unknown): boolean {
  return isObject(out) && typeof out.passed === 'boolean' && Array.isArray(out.checks)
}

function one(out: unknown): unknown {
  if (!isObject(out)) return out ?? null
  if (typeof out.summary === 'string') return out.summary
  if ('result' in out && Array.isArray(out.console)) return out.result
  if (typeof out.stdout === 'string' && 'exit_code' in out) return out.stdout
  if (typeof out.body === 'string' && 'status' in out) return out.body
  if (typeof out.text === 'string' && 'redactions' in out) return out.text
  if (Array.isArray(out.hits)) return out.hits
  if (typeof out.code === 'string' && typeof out.language === 'string') return out.code
  return out
}
