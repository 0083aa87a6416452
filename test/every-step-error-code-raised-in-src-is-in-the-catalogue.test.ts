// The step error catalogue (src/step-errors.ts) is the one list of the codes a task record's errors
// carry. The types refuse a code outside it where a raiser takes one (ArmError, StepError, LlmError,
// stepFailure); this reads the source for the rest: error object literals and comparisons with a
// `.code`, a flag restated beside a code the catalogue fixes, and catalogue codes nothing raises.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import t from 'tap'
import { STEP_ERRORS } from '../src/step-errors.js'
import { codesNamedIn, problemsIn } from './helpers/step-codes-in-source.js'

const SRC = new URL('../src/', import.meta.url).pathname
const CATALOGUE = 'step-errors.ts'
const files = (readdirSync(SRC, { recursive: true }) as string[])
  .filter((f) => f.endsWith('.ts') && f !== CATALOGUE)
  .map((f) => ({ name: relative(SRC, join(SRC, f)), text: readFileSync(join(SRC, f), 'utf8') }))

t.test('the reader finds a code outside the catalogue and a restated flag', async (t) => {
  const found = problemsIn(
    'sample.ts',
    [
      "throw new ArmError('COMAND_FAILED', 'exit 1')",
      "const failure = { code: 'STEP_TIMED_OUT', message: 'late', retryable: true }",
      "if (err.code === 'LLM_BUDGET_EXCEDED') stop()",
      "throw new LlmError(busy ? 'LLM_UNAVAILABLE' : 'LLM_OVERLOADED', 'try later', true)",
      "throw new ArmError('COMMAND_FAILED', 'exit 1', false)",
      "if (err.code === 'ERR_MODULE_NOT_FOUND' || err.code === 'LLM_ABORTED') stop()",
      "throw new LlmError('LLM_BAD_OUTPUT', 'not JSON', true)",
    ].join('\n'),
  )
  t.same(
    found.map((p) => `${p.where} ${p.problem}`),
    [
      'sample.ts:1 COMAND_FAILED is not in the step error catalogue',
      'sample.ts:2 STEP_TIMED_OUT is not in the step error catalogue',
      'sample.ts:3 LLM_BUDGET_EXCEDED is not in the step error catalogue',
      'sample.ts:4 LLM_OVERLOADED is not in the step error catalogue',
      'sample.ts:5 COMMAND_FAILED: the catalogue fixes its flag; do not pass one',
    ],
  )
})

t.test('every code raised in src/ is in the catalogue, with its flag said there', async (t) => {
  t.ok(files.length > 100, `read ${files.length} files`)
  t.same(
    files.flatMap((f) => problemsIn(f.name, f.text)),
    [],
  )
})

t.test('every code in the catalogue is raised somewhere in src/', async (t) => {
  const named = new Set(files.flatMap((f) => [...codesNamedIn(f.name, f.text)]))
  t.same(
    Object.keys(STEP_ERRORS).filter((code) => !named.has(code)),
    [],
  )
})
