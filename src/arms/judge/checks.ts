/**
 * The judge's deterministic checks: their definitions (declared once, typebox), a label for each,
 * and how each one is run against the subject (the dependency outputs).
 *
 * ```ts
 * const check = parseCheck({ type: 'regex', pattern: '^\\d+$', path: 's2.stdout' }, 'checks.0')
 * await runCheck(check, { s2: { exit_code: 0, stdout: '6765\n' } }, new CheckBudget(2_000)) // { passed: true, detail: 'matched at s2.stdout' }
 * ```
 *
 * Without a `path`, text checks (contains, not_contains, regex) read every string and number leaf
 * of the subject; checks of "the result" (equals, max_length, min_length, json_schema, valid_json) read each
 * dependency's primary result (subject.ts), and so does min_length, since `duration_ms` or a retrieved hit is not what
 * "the answer is at most 50 words" is about.
 */
import Type from 'typebox'
import { Value } from 'typebox/value'
import { type CheckBudget, CheckBudgetError } from '../check-budget.js'
import { ArmError, checkedInput } from '../contract.js'
import { compileSafe, SafeRegexError, testBounded } from './safe-regex.js'
import { schemaProblem, validate } from './schema-check.js'
import { type Leaf, leaves, MAX_LEAVES, preview, primaryResults, resolvePath } from './subject.js'

const Path = Type.Optional(Type.String({ minLength: 1, maxLength: 500 }))
/** Optional wording reported as the check's `criterion`; a label is made up otherwise. */
const Label = Type.Optional(Type.String({ maxLength: 2000 }))
const Text = Type.Union([Type.String({ minLength: 1, maxLength: 10_000 }), Type.Number()])

export const CHECK_SCHEMAS = {
  json_schema: Type.Object(
    { type: Type.Literal('json_schema'), schema: Type.Unknown(), path: Path, criterion: Label },
    { additionalProperties: false },
  ),
  regex: Type.Object(
    {
      type: Type.Literal('regex'),
      pattern: Type.String({ minLength: 1 }),
      flags: Type.Optional(Type.String()),
      path: Path,
      criterion: Label,
    },
    { additionalProperties: false },
  ),
  contains: Type.Object(
    { type: Type.Literal('contains'), value: Text, ignore_case: Type.Optional(Type.Boolean()), path: Path, criterion: Label },
    { additionalProperties: false },
  ),
  not_contains: Type.Object(
    { type: Type.Literal('not_contains'), value: Text, ignore_case: Type.Optional(Type.Boolean()), path: Path, criterion: Label },
    { additionalProperties: false },
  ),
  equals: Type.Object(
    { type: Type.Literal('equals'), value: Type.Unknown(), path: Path, criterion: Label },
    { additionalProperties: false },
  ),
  exit_code: Type.Object({ type: Type.Literal('exit_code'), equals: Type.Integer(), criterion: Label }, { additionalProperties: false }),
  max_length: Type.Object(
    {
      type: Type.Literal('max_length'),
      value: Type.Integer({ minimum: 0 }),
      unit: Type.Optional(Type.Enum(['chars', 'words'])),
      path: Path,
      criterion: Label,
    },
    { additionalProperties: false },
  ),
  min_length: Type.Object(
    {
      type: Type.Literal('min_length'),
      value: Type.Integer({ minimum: 0 }),
      unit: Type.Optional(Type.Enum(['chars', 'words'])),
      path: Path,
      criterion: Label,
    },
    { additionalProperties: false },
  ),
  valid_json: Type.Object({ type: Type.Literal('valid_json'), path: Path, criterion: Label }, { additionalProperties: false }),
} as const

const C = CHECK_SCHEMAS
export const Check = Type.Union([
  C.json_schema,
  C.regex,
  C.contains,
  C.not_contains,
  C.equals,
  C.exit_code,
  C.max_length,
  C.min_length,
  C.valid_json,
])
export type Check = Type.Static<typeof Check>
export type CheckType = keyof typeof CHECK_SCHEMAS

export interface Outcome {
  passed: boolean
  detail: string
}

/** Checks a definition, its regex and its schema; INPUT_INVALID naming `where` otherwise. */
export function parseCheck(raw: unknown, where: string): Check {
  const type = (raw as { type?: unknown } | null)?.type
  if (typeof type !== 'string' || !Object.hasOwn(CHECK_SCHEMAS, type))
    throw invalid(`${where}.type: ${preview(type)} is not one of ${Object.keys(CHECK_SCHEMAS).join(', ')}`)
  const check = checkedInput(CHECK_SCHEMAS[type as CheckType], raw, where) as Check
  if (check.type === 'regex') {
    try {
      compileSafe(check.pattern, check.flags)
    } catch (err) {
      throw invalid(`${where}.pattern: ${(err as Error).message}`)
    }
  }
  if (check.type === 'json_schema') {
    const problem = schemaProblem(check.schema)
    if (problem) throw invalid(`${where}.${problem}`)
  }
  return check
}

/** The words a check is reported under. */
export function describeCheck(check: Check): string {
  if (check.criterion) return check.criterion
  const at = 'path' in check && check.path ? ` at ${check.path}` : ''
  switch (check.type) {
    case 'json_schema':
      return `matches the JSON schema${at}`
    case 'regex':
      return `matches /${check.pattern}/${check.flags ?? ''}${at}`
    case 'contains':
      return `contains ${preview(String(check.value))}${at}`
    case 'not_contains':
      return `does not contain ${preview(String(check.value))}${at}`
    case 'equals':
      return `equals ${preview(check.value)}${at}`
    case 'exit_code':
      return `exit code is ${check.equals}`
    case 'max_length':
      return `at most ${check.value} ${check.unit === 'words' ? 'words' : 'characters'}${at}`
    case 'min_length':
      return `at least ${check.value} ${check.unit === 'words' ? 'words' : 'characters'}${at}`
    case 'valid_json':
      return `is valid JSON${at}`
  }
}

/**
 * Runs one parsed check. A pattern that times out is INPUT_INVALID: the definition is at fault;
 * so is running past `budget`, shared by every check of one call.
 */
export async function runCheck(check: Check, subject: Record<string, unknown>, budget: CheckBudget): Promise<Outcome> {
  if ('path' in check && check.path !== undefined) {
    const found = resolvePath(subject, check.path)
    if (!found.found) return { passed: false, detail: `no value at ${found.missing}` }
  }
  switch (check.type) {
    case 'contains':
    case 'not_contains':
      return containsCheck(check, textLeaves(check, subject))
    case 'regex':
      return await regexCheck(check, textLeaves(check, subject), budget)
    case 'exit_code':
      return exitCodeCheck(check.equals, subject)
    case 'equals':
      return eachResult(check, subject, 'any', (v) => (looseEqual(v, check.value) ? undefined : `is ${preview(v)}`))
    case 'max_length':
      return eachResult(check, subject, 'all', (v) => lengthProblem(v, { max: check.value }, check.unit ?? 'chars'))
    case 'min_length':
      return eachResult(check, subject, 'all', (v) => lengthProblem(v, { min: check.value }, check.unit ?? 'chars'))
    case 'json_schema':
      return await eachResult(check, subject, 'all', async (v) => {
        await budget.breathe()
        const errors = definitionAtFault(check, () => validate(check.schema, parsedIfJson(v), budget))
        return errors.length === 0 ? undefined : errors.join('; ')
      })
    case 'valid_json':
      return eachResult(check, subject, 'all', (v) => {
        if (typeof v !== 'string') return undefined
        try {
          JSON.parse(v)
          return undefined
        } catch {
          return `is not JSON: ${preview(v, 40)}`
        }
      })
  }
}

function textLeaves(check: Check & { path?: string }, subject: Record<string, unknown>): { leaves: Leaf[]; capped: boolean } {
  if (check.path === undefined) return leaves(subject)
  return leaves((resolvePath(subject, check.path) as { value: unknown }).value, check.path)
}

function containsCheck(check: Extract<Check, { type: 'contains' | 'not_contains' }>, found: { leaves: Leaf[]; capped: boolean }): Outcome {
  const needle = check.ignore_case ? String(check.value).toLowerCase() : String(check.value)
  const hit = found.leaves.find((l) => (check.ignore_case ? l.text.toLowerCase() : l.text).includes(needle))
  const where = hit ? `found at ${hit.path || 'the value'}` : `not found in ${found.leaves.length} string(s)${capNote(found.capped)}`
  return { passed: check.type === 'contains' ? hit !== undefined : hit === undefined, detail: where }
}

async function regexCheck(
  check: Extract<Check, { type: 'regex' }>,
  found: { leaves: Leaf[]; capped: boolean },
  budget: CheckBudget,
): Promise<Outcome> {
  const re = compileSafe(check.pattern, check.flags)
  let cut = false
  for (const leaf of found.leaves) {
    await budget.breathe()
    const result = definitionAtFault(check, () => testBounded(re, leaf.text, budget))
    cut ||= result.cut
    if (result.matched) return { passed: true, detail: `matched at ${leaf.path || 'the value'}` }
  }
  return {
    passed: false,
    detail: `no match in ${found.leaves.length} string(s)${cut ? ' (long strings read up to their first 100000 characters)' : ''}${capNote(found.capped)}`,
  }
}

function exitCodeCheck(expected: number, subject: Record<string, unknown>): Outcome {
  const codes = Object.entries(subject).flatMap(([step, out]) => {
    const code = (out as { exit_code?: unknown } | null)?.exit_code
    return typeof code === 'number' ? [{ step, code }] : []
  })
  if (codes.length === 0) return { passed: false, detail: 'no dependency output reports an exit code' }
  const wrong = codes.filter((c) => c.code !== expected)
  if (wrong.length === 0) return { passed: true, detail: `exit code ${expected} (${codes.map((c) => c.step).join(', ')})` }
  return { passed: false, detail: wrong.map((c) => `${c.step} exited with ${c.code}`).join(', ') }
}

/**
 * Runs `problem` over the value at the path, or over each dependency's primary result; `any`
 * passes when one has no problem, `all` when none has.
 */
async function eachResult(
  check: Check & { path?: string },
  subject: Record<string, unknown>,
  mode: 'any' | 'all',
  problem: (v: unknown) => string | undefined | Promise<string | undefined>,
): Promise<Outcome> {
  const targets =
    check.path !== undefined
      ? [{ path: check.path, value: (resolvePath(subject, check.path) as { value: unknown }).value }]
      : primaryResults(subject)
  if (targets.length === 0)
    return { passed: false, detail: 'no dependency output has a result field (result, stdout, code, body, summary); give a path' }
  const problems: Array<{ path: string; problem: string | undefined }> = []
  for (const t of targets) problems.push({ path: t.path, problem: await problem(t.value) })
  const ok = problems.filter((p) => p.problem === undefined)
  const passed = mode === 'any' ? ok.length > 0 : ok.length === problems.length
  if (passed) return { passed, detail: `holds at ${(mode === 'any' ? ok : problems).map((p) => p.path).join(', ')}` }
  return {
    passed,
    detail: problems
      .filter((p) => p.problem !== undefined)
      .map((p) => `${p.path} ${p.problem}`)
      .join('; '),
  }
}

/** Numbers match numeric strings, strings compare trimmed (stdout ends in a newline), the rest structurally. */
export function looseEqual(actual: unknown, expected: unknown): boolean {
  const num = (v: unknown): number | undefined =>
    typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v.trim())) ? Number(v.trim()) : undefined
  if (typeof actual === 'number' || typeof expected === 'number') {
    const a = num(actual)
    const b = num(expected)
    return a !== undefined && a === b
  }
  if (typeof actual === 'string' && typeof expected === 'string') return actual.trim() === expected.trim()
  if (typeof actual === 'string' && expected !== null && typeof expected === 'object') return Value.Equal(parsedIfJson(actual), expected)
  return Value.Equal(actual, expected)
}

/** Characters are code points of the trimmed text; words are runs of non-space. */
function lengthProblem(value: unknown, bound: { max?: number; min?: number }, unit: 'chars' | 'words'): string | undefined {
  const text = typeof value === 'string' ? value.trim() : value === undefined || value === null ? '' : (JSON.stringify(value) ?? '')
  const size = unit === 'words' ? text.split(/\s+/u).filter(Boolean).length : [...text].length
  const noun = unit === 'words' ? 'words' : 'characters'
  if (bound.max !== undefined && size > bound.max) return `has ${size} ${noun} (at most ${bound.max})`
  if (bound.min !== undefined && size < bound.min) return `has ${size} ${noun} (at least ${bound.min})`
  return undefined
}

function parsedIfJson(value: unknown): unknown {
  if (typeof value !== 'string') return value
  try {
    return JSON.parse(value)
  } catch {
    return value
  }
}

function capNote(capped: boolean): string {
  return capped ? ` (only the first ${MAX_LEAVES} strings were read)` : ''
}

/**
 * A pattern refused (SafeRegexError) or run past its own time limit is INPUT_INVALID: the
 * definition is at fault. A call past its budget is CHECK_BUDGET_EXCEEDED.
 */
function definitionAtFault<T>(check: Check, run: () => T): T {
  try {
    return run()
  } catch (err) {
    if (err instanceof CheckBudgetError && err.spent) throw new ArmError('CHECK_BUDGET_EXCEEDED', `${describeCheck(check)}: ${err.message}`)
    if (err instanceof SafeRegexError || err instanceof CheckBudgetError) throw invalid(`${describeCheck(check)}: ${err.message}`)
    throw err
  }
}

function invalid(message: string): ArmError {
  return new ArmError('INPUT_INVALID', message)
}
