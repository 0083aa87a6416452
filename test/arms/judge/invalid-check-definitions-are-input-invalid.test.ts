import t from 'tap'

import { createJudgeArm } from '../../../src/arms/judge/judge-arm.js'
import { armContext, armErrorOf, executeRequest } from '../arm-context-fixture.js'
import { judgeError, SHELL_OK } from './judge-fixture.js'

const deps = { s1: SHELL_OK }
const bad: Array<[string, unknown, RegExp]> = [
  ['an unknown type', { type: 'spellcheck' }, /checks\.0\.type: "spellcheck" is not one of/],
  ['a regex that does not compile', { type: 'regex', pattern: '(unclosed' }, /checks\.0\.pattern: .*Unterminated group/],
  ['a look-ahead', { type: 'regex', pattern: 'a(?=b)' }, /checks\.0\.pattern: refused by the linear-time engine: look-around/],
  ['a back-reference', { type: 'regex', pattern: '(a)\\1' }, /checks\.0\.pattern: refused by the linear-time engine: backreferences/],
  ['a stateful flag', { type: 'regex', pattern: 'a', flags: 'g' }, /only i, m, s and u/],
  ['a pattern too long', { type: 'regex', pattern: 'a'.repeat(1001) }, /longer than 1000/],
  ['a schema with an unknown type', { type: 'json_schema', schema: { type: 'strnig' } }, /schema\.type: "strnig" is not a JSON type/],
  [
    'a schema whose required is not a list',
    { type: 'json_schema', schema: { type: 'object', required: 'a' } },
    /schema\.required: must be an array/,
  ],
  ['a schema that is not an object', { type: 'json_schema', schema: 5 }, /schema: must be an object or a boolean/],
  [
    'a schema pattern that does not compile',
    { type: 'json_schema', schema: { properties: { a: { pattern: '[' } } } },
    /schema\.properties\.a\.pattern/,
  ],
  [
    'a patternProperties key that does not compile',
    { type: 'json_schema', schema: { patternProperties: { '[': {} } } },
    /schema\.patternProperties: "\[":/,
  ],
  [
    'a patternProperties key with a nested quantifier',
    { type: 'json_schema', schema: { patternProperties: { '^(a+)+$': {} } } },
    /schema\.patternProperties: .*backtrack/,
  ],
  ['a field the check does not have', { type: 'contains', value: 'x', where: 'y' }, /checks\.0/],
  ['a missing value', { type: 'equals' }, /checks\.0/],
]

for (const [what, check, message] of bad) {
  t.test(`${what} is INPUT_INVALID`, async (t) => {
    const err = await judgeError({ deps, input: { checks: [check] } })
    t.equal(err.code, 'INPUT_INVALID')
    t.match(err.message, message)
  })
}

t.test('a contains value is text or a number: the message says so, or names the bound it broke', async (t) => {
  // `value` is a union (string or number): a wrong type is worded by every type it takes, not by
  // the first branch's alone; a string that breaks the string branch's bound by that bound.
  const cases: Array<[unknown, string]> = [
    [{ type: 'contains', value: true }, 'input.checks.0.value: must be string or number'],
    [{ type: 'not_contains', value: ['6765'] }, 'input.checks.0.value: must be string or number'],
    [{ type: 'contains', value: null }, 'input.checks.0.value: must be string or number'],
    [{ type: 'contains', value: '' }, 'input.checks.0.value: must not have fewer than 1 characters'],
    [{ type: 'contains', value: 'x'.repeat(10_001) }, 'input.checks.0.value: must not have more than 10000 characters'],
  ]
  for (const [check, message] of cases) {
    const err = await judgeError({ deps, input: { checks: [check] } })
    t.equal(err.code, 'INPUT_INVALID')
    t.equal(err.message, message, JSON.stringify(check).slice(0, 60))
  }
})

t.test('a bad regex in a criterion is INPUT_INVALID too', async (t) => {
  const err = await judgeError({ deps, criteria: ['matches /(?!x)y/'] })
  t.equal(err.code, 'INPUT_INVALID')
  t.match(err.message, /criteria\.0\.pattern/)
})

t.test('nothing to judge, or input that is not the judge’s, is INPUT_INVALID', async (t) => {
  t.match(await judgeError({ deps }), { code: 'INPUT_INVALID', message: /nothing to judge/ })
  t.match(await judgeError({ deps, input: { checks: 'all' } }), { code: 'INPUT_INVALID', message: /input\.checks/ })
})

t.test('a tool other than validate is TOOL_UNKNOWN, as in every arm', async (t) => {
  const { ctx } = armContext({ arm: 'judge', tool: 'grade' })
  const request = executeRequest({ tool: 'grade', input: {}, context: { dep_outputs: deps, acceptance_criteria: [], constraints: {} } })
  const err = await armErrorOf(createJudgeArm().execute(request, ctx), 'the judge')
  t.match(err, { code: 'TOOL_UNKNOWN', message: /no tool 'grade' \(validate\)/, retryable: false })
})
