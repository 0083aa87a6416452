import t from 'tap'

import { call, executor } from './executor-fixture.js'

const cases: Array<[string, Record<string, unknown>, RegExp]> = [
  ['a missing command', {}, /'command' is required/],
  ['a command that is no string', { command: 42 }, /'command' must be a string/],
  ['args that are not strings', { command: 'echo', args: ['a', 1] }, /'args\[1\]' must be a string/],
  ['args that are no array', { command: 'echo', args: 'a b' }, /'args' must be an array/],
  ['a NUL in an argument', { command: 'echo', args: ['a\0b'] }, /NUL/],
  ['stdin beyond its limit', { command: 'wc', stdin: 'x'.repeat(1024 * 1024 + 1) }, /'stdin' is (longer|larger) than/],
  ['a timeout that is no positive integer', { command: 'true', timeout_ms: -5 }, /'timeout_ms' must be an integer/],
  ['allow_nonzero_exit that is no boolean', { command: 'true', allow_nonzero_exit: 'yes' }, /must be a boolean/],
  ['an unknown field', { command: 'true', shell: true }, /unknown field 'shell'/],
]

for (const [what, input, message] of cases) {
  t.test(`${what} is INPUT_INVALID`, async (t) => {
    await t.rejects(call(executor(), 'shell', input), { code: 'INPUT_INVALID', retryable: false, message })
  })
}

t.test('too many arguments is INPUT_INVALID', async (t) => {
  await t.rejects(call(executor({ limits: { shellMaxArgs: 3 } }), 'shell', { command: 'echo', args: ['1', '2', '3', '4'] }), {
    code: 'INPUT_INVALID',
  })
})

t.test('an unknown tool is INPUT_INVALID', async (t) => {
  await t.rejects(call(executor(), 'python', {}), { code: 'TOOL_UNKNOWN', message: /no tool 'python'/ })
})
