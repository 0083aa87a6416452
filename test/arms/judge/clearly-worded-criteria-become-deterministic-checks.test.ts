import t from 'tap'

import { translateCriterion } from '../../../src/arms/judge/criteria.js'
import { JS_RESULT, judge, SHELL_OK, verdict } from './judge-fixture.js'

// each phrasing, what it becomes, and an output it passes and one it fails
const cases: Array<[string, Record<string, unknown>, Record<string, unknown>, Record<string, unknown>]> = [
  ['The output contains 6765', { type: 'contains', value: '6765', ignore_case: true }, SHELL_OK, { ...SHELL_OK, stdout: '6764' }],
  ['mentions refund', { type: 'contains', value: 'refund' }, { summary: 'Refunds take 14 days' }, { summary: 'Returns take 14 days' }],
  [
    'The answer must include "14 days".',
    { type: 'contains', value: '14 days' },
    { summary: 'within 14 days' },
    { summary: 'within 2 weeks' },
  ],
  ['does not contain password', { type: 'not_contains', value: 'password' }, SHELL_OK, { ...SHELL_OK, stdout: 'Password: x' }],
  ['The result must not mention "error"', { type: 'not_contains', value: 'error' }, SHELL_OK, { ...SHELL_OK, stderr: 'Error' }],
  ['the result is 6765', { type: 'equals', value: 6765 }, JS_RESULT, { ...JS_RESULT, result: 6764 }],
  ['result equals fib', { type: 'equals', value: 'fib' }, { result: 'fib' }, { result: 'fob' }],
  [
    'The output should be "done"',
    { type: 'equals', value: 'done' },
    { ...SHELL_OK, stdout: 'done\n' },
    { ...SHELL_OK, stdout: 'not done' },
  ],
  ['exit code is 0', { type: 'exit_code', equals: 0 }, SHELL_OK, { ...SHELL_OK, exit_code: 1 }],
  ['The command exits with code 3', { type: 'exit_code', equals: 3 }, { ...SHELL_OK, exit_code: 3 }, SHELL_OK],
  ['the command succeeds', { type: 'exit_code', equals: 0 }, SHELL_OK, { ...SHELL_OK, exit_code: 127 }],
  ['Output is valid JSON', { type: 'valid_json' }, { ...SHELL_OK, stdout: '{"a":1}' }, SHELL_OK_TEXT()],
  ['matches /^fib\\(\\d+\\) = \\d+$/i', { type: 'regex', flags: 'i' }, { ...SHELL_OK, stdout: 'FIB(20) = 6765' }, SHELL_OK],
  [
    'The summary is at most 5 words',
    { type: 'max_length', value: 5, unit: 'words' },
    { summary: 'Refunds take 14 days.' },
    { summary: 'Refunds take fourteen calendar days.' + ' x' },
  ],
  ['under 10 characters', { type: 'max_length', value: 9, unit: 'chars' }, { result: '123456789' }, { result: '1234567890' }],
  ['the output is not empty', { type: 'min_length', value: 1 }, SHELL_OK, { ...SHELL_OK, stdout: '  ' }],
  [
    'The answer has at least 3 words',
    { type: 'min_length', value: 3, unit: 'words' },
    { summary: 'one two three' },
    { summary: 'one two' },
  ],
]

function SHELL_OK_TEXT(): Record<string, unknown> {
  return { ...SHELL_OK, stdout: 'six thousand' }
}

for (const [criterion, check, good, bad] of cases) {
  t.test(criterion, async (t) => {
    t.match(translateCriterion(criterion), { ...check, criterion })
    const out = await judge({ deps: { s1: good }, criteria: [criterion] })
    t.match(out.checks, [{ criterion, method: 'deterministic', passed: true }])
    t.notOk(await verdict({ deps: { s1: bad }, criteria: [criterion] }), 'fails the other output')
  })
}

t.test('wording that names a kind of thing, or a judgement, is not translated', async (t) => {
  for (const criterion of [
    'The summary is accurate',
    'contains a summary of the document',
    'mentions the cause and the fix',
    'the result is correct',
    'includes the date',
    'The answer has 3 items',
  ])
    t.equal(translateCriterion(criterion), undefined, criterion)
})
