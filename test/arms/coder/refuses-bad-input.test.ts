// Input that is missing or of the wrong type is INPUT_INVALID before anything is written.
import t from 'tap'

import { callCoder } from './coder-fixture.js'

t.test('each bad input is refused', async (t) => {
  const bad: Array<[string, string, Record<string, unknown>, RegExp]> = [
    ['no spec', 'generate', {}, /^input: .*spec/],
    ['a spec that is not a string', 'generate', { spec: 42 }, /^input\.spec: /],
    ['a blank spec', 'generate', { spec: '  ' }, /^input\.spec: /],
    ['a spec too long', 'generate', { spec: 'x'.repeat(20_001) }, /^input\.spec: /],
    ['a bad language', 'generate', { spec: 'x', language: 'Java Script' }, /^input\.language: /],
    ['an unknown field', 'generate', { spec: 'x', code: '1' }, /^input\.code: is not a field this input takes$/],
    ['a repair without the error', 'repair', { code: '1 +' }, /^input: .*error/],
    ['a repair without code', 'repair', { error: 'SyntaxError' }, /^input: .*code/],
    ['a repair with a blank spec', 'repair', { code: '1 +', error: 'SyntaxError', spec: ' ' }, /^input\.spec: /],
  ]
  for (const [what, tool, input, message] of bad) {
    await t.rejects(callCoder(tool, input), { name: 'ArmError', code: 'INPUT_INVALID', message }, what)
  }
})

t.test('a tool the coder does not have', async (t) => {
  await t.rejects(callCoder('run', { spec: 'x' }), { code: 'TOOL_UNKNOWN', message: /no tool 'run' \(generate, repair\)/ })
})
