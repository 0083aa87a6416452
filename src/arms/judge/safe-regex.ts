/**
 * Regular expressions from check definitions (a plan, so ultimately a model or a client) run over
 * step outputs in this process. A `regex` check's pattern is matched by the Rust `regex` engine in
 * the addon (`LinearRegex`), in time linear in the text whatever the pattern; JavaScript's syntax
 * is kept (`\d`, `\w`, `\s`, `\b` and `.` read as JavaScript reads them: ../../linear-pattern.ts),
 * and what that engine has no counterpart for (look-around, back-references) is refused. Guards,
 * documented in docs/arms/judge.md:
 *
 * - the pattern is at most `MAX_PATTERN_CHARS` long, flags only `i`, `m`, `s`, `u`;
 * - each string is matched on at most its first `MAX_SUBJECT_CHARS` characters, and all of one
 *   call's checks together within its budget (a `CheckBudget`, ../check-budget.ts).
 *
 * `pattern` keywords inside JSON Schemas are run by typebox on JavaScript's engine, so
 * `vetSchemaPattern` refuses those with a quantified group that itself holds a quantifier
 * (`(a+)+`, `(\w*)*`) or a back-reference, and the validation runs under a time limit.
 *
 * ```ts
 * const budget = new CheckBudget(2_000)
 * const re = compileSafe('^\\d+$', 'm')   // or throws SafeRegexError with the reason
 * testBounded(re, stdout, budget)         // { matched: true, cut: false }
 * vetSchemaPattern('^(a+)+$')             // throws SafeRegexError: can backtrack catastrophically
 * ```
 */
import { LinearRegex } from '@ganglion/reflex'

import { rustSyntax } from '../../linear-pattern.js'
import type { CheckBudget } from '../check-budget.js'

export const MAX_PATTERN_CHARS = 1_000
export const MAX_SUBJECT_CHARS = 100_000

const ALLOWED_FLAGS = /^[imsu]*$/

export class SafeRegexError extends Error {}

/** A `regex` check's pattern on the linear-time engine, or SafeRegexError with the reason. */
export function compileSafe(pattern: string, flags = ''): LinearRegex {
  checkSyntax(pattern, flags)
  const inline = ['i', 'm'].filter((f) => flags.includes(f)).join('')
  try {
    return new LinearRegex(`${inline === '' ? '' : `(?${inline})`}${rustSyntax(pattern, flags.includes('s'))}`)
  } catch (err) {
    throw new SafeRegexError(`refused by the linear-time engine: ${firstLine(err)}`)
  }
}

/** A JSON Schema `pattern` or `patternProperties` key, which typebox runs on JavaScript's engine. */
export function vetSchemaPattern(pattern: string): void {
  checkSyntax(pattern, 'u')
  const risk = backtrackingRisk(pattern)
  if (risk !== undefined) throw new SafeRegexError(`refused: ${risk} can backtrack catastrophically`)
}

export function testBounded(re: LinearRegex, text: string, budget: CheckBudget): { matched: boolean; cut: boolean } {
  const cut = text.length > MAX_SUBJECT_CHARS
  const subject = cut ? text.slice(0, MAX_SUBJECT_CHARS) : text
  return { matched: budget.count(() => re.test(subject)), cut }
}

/** Length, flags and JavaScript's own syntax (compiled only, never run on client text here). */
function checkSyntax(pattern: string, flags: string): void {
  if (pattern.length > MAX_PATTERN_CHARS) throw new SafeRegexError(`pattern is longer than ${MAX_PATTERN_CHARS} characters`)
  // g and y make `test` stateful; d and v are not needed for a yes/no answer
  if (!ALLOWED_FLAGS.test(flags) || new Set(flags).size !== flags.length)
    throw new SafeRegexError(`flags '${flags}': only i, m, s and u, once each`)
  try {
    new RegExp(pattern, flags)
  } catch (err) {
    throw new SafeRegexError((err as Error).message)
  }
}

function firstLine(err: unknown): string {
  const lines = String((err as Error).message).split('\n')
  return (lines.find((line) => line.startsWith('error: ')) ?? lines[0] ?? '').replace(/^error: /, '')
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

function quantifierAt(pattern: string, i: number): boolean {
  const c = pattern[i]
  if (c === '*' || c === '+') return true
  if (c !== '{') return false
  const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i, i + 24))
  if (!m) return false
  return m[2] !== undefined && (m[3] === '' || Number(m[3]) > 1)
}
