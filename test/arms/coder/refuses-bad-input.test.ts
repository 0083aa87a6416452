// Input that is missing or of the wrong type is INPUT_INVALID before anything is written.
import t from 'tap'

import { callCoder } from './coder-fixture.js'

t.test('each bad input is refused', async (t) => {
  const bad: Array<[string, string, Record<string, unknown>]> = [
    ['no spec', 'generate', {}],
    ['a spec that is not a string', 'generate', { spec: 42 }],
    ['an empty spec', 'generate', { spec: '  ' }],
    ['a bad language', 'generate', { spec: 'x', language: 'Java Script' }],
    ['an unknown field', 'generate', { spec: 'x', code: '1' }],
    ['a repair without the error', 'repair', { code: '1 +' }],
    ['a repair without code', 'repair', { error: 'SyntaxError' }],
  ]
  for (const [what, tool, input] of bad) await t.rejects(callCoder(tool, input), { name: 'ArmError', code: 'INPUT_INVALID' }, what)
})

t.test('a tool the coder does not have', async (t) => {
  await t.rejects(callCoder('run', { spec: 'x' }), { code: 'TOOL_UNKNOWN' })
})
