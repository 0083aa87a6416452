/**
 * Regular expressions from check definitions (a plan, so ultimately a model or a client) run in
 * this process, and JavaScript's engine backtracks with no time limit: `(a+)+$` against 30 `a`s
 * and a `b` takes minutes. Four guards, documented in docs/arms/judge.md:
 *
 * - the pattern is at most `MAX_PATTERN_CHARS` long;
 * - patterns with a quantified group that itself holds a quantifier (`(a+)+`, `(\w*)*`,
 *   `(a|b+){2,}`) or a back-reference are refused: those are where catastrophic backtracking lives;
 * - each string is matched on at most its first `MAX_SUBJECT_CHARS` characters;
 * - each match, and each schema validation (whose `pattern`s typebox runs), stops at a time limit,
 *   and all of one call's checks together at its budget (a `CheckBudget`, ../check-budget.ts):
 *   thousands of strings each just under the limit would otherwise hold the event loop for minutes.
 *
 * ```ts
 * const budget = new CheckBudget(2_000)
 * const re = compileSafe('^\\d+$', 'm')   // RegExp, or throws SafeRegexError with the reason
 * testBounded(re, stdout, budget)         // { matched: true, cut: false }
 * ```
 */
import type { CheckBudget } from '../check-budget.js'

export const MAX_PATTERN_CHARS = 1_000
export const MAX_SUBJECT_CHARS = 100_000
export const MATCH_TIMEOUT_MS = 100

const ALLOWED_FLAGS = /^[imsu]*$/

export class SafeRegexError extends Error {}

export function compileSafe(pattern: string, flags = ''): RegExp {
  if (pattern.length > MAX_PATTERN_CHARS) throw new SafeRegexError(`pattern is longer than ${MAX_PATTERN_CHARS} characters`)
  // g and y make `test` stateful; d and v are not needed for a yes/no answer
  if (!ALLOWED_FLAGS.test(flags) || new Set(flags).size !== flags.length)
    throw new SafeRegexError(`flags '${flags}': only i, m, s and u, once each`)
  let re: RegExp
  try {
    re = new RegExp(pattern, flags)
  } catch (err) {
    throw new SafeRegexError((err as Error).message)
  }
  const risk = backtrackingRisk(pattern)
  if (risk !== undefined) throw new SafeRegexError(`refused: ${risk} can backtrack catastrophically`)
  return re
}

export function testBounded(re: RegExp, text: string, budget: CheckBudget): { matched: boolean; cut: boolean } {
  const cut = text.length > MAX_SUBJECT_CHARS
  const subject = cut ? text.slice(0, MAX_SUBJECT_CHARS) : text
  return { matched: budget.run(() => re.test(subject), MATCH_TIMEOUT_MS, 'matching'), cut }
}

/**
 * Star height above one, found by a scan of the pattern: each group remembers whether a
 * quantifier occurred inside it; a group closed and then quantified, with one inside, is the
 * risk. Overlapping alternation (`(a|a)*`) is left to the timeout: refusing every quantified
 * alternation would refuse `(cat|dog)+` too.
 */
function backtrackingRisk(pattern: string): string | undefined {
  const stack: Array<{ quantified: boolean }> = []
  let inClass = false
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!
    if (c === '\\') {
      const next = pattern[i + 1] ?? ''
      if (!inClass && (/[1-9]/.test(next) || (next === 'k' && pattern[i + 2] === '<'))) return 'a back-reference'
      i++
      continue
    }
    if (inClass) {
      if (c === ']') inClass = false
      continue
    }
    if (c === '[') inClass = true
    else if (c === '(') stack.push({ quantified: false })
    else if (c === ')') {
      const group = stack.pop()
      const quantifier = quantifierAt(pattern, i + 1)
      if (group?.quantified && quantifier) return `the quantified group ending at ${i + 1}, with a quantifier inside,`
      // the enclosing group now holds a quantifier, directly or through this one
      if (stack.length > 0 && (quantifier || group?.quantified)) stack[stack.length - 1]!.quantified = true
    } else if (quantifierAt(pattern, i) && stack.length > 0) stack[stack.length - 1]!.quantified = true
  }
  return undefined
}

/** A quantifier that repeats without bound or many times: `*`, `+`, `{n,}`, `{n,m}` with m > 1. */
function quantifierAt(pattern: string, i: number): boolean {
  const c = pattern[i]
  if (c === '*' || c === '+') return true
  if (c !== '{') return false
  const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i, i + 24))
  if (!m) return false
  return m[2] !== undefined && (m[3] === '' || Number(m[3]) > 1)
}
