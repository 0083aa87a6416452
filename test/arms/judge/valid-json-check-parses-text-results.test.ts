import t from 'tap'

import { judgeError, SHELL_OK, verdict } from './judge-fixture.js'

t.test('JSON text and structured results pass; other text fails', async (t) => {
  t.ok(await verdict({ deps: { s1: { ...SHELL_OK, stdout: '[1, 2]\n' } }, input: { checks: [{ type: 'valid_json' }] } }))
  t.ok(await verdict({ deps: { s1: { result: { a: 1 } } }, input: { checks: [{ type: 'valid_json' }] } }))
  const err = await judgeError({ deps: { s1: { ...SHELL_OK, stdout: '{a: 1}' } }, input: { checks: [{ type: 'valid_json' }] } })
  t.match(err.message, /is valid JSON.*s1\.stdout is not JSON/)
})
