import t from 'tap'

import { judgeError, SHELL_OK } from './judge-fixture.js'

t.test('every failed criterion and its reason are in the message; passing ones are not', async (t) => {
  const err = await judgeError({
    deps: { s1: { ...SHELL_OK, exit_code: 1, stdout: '6764\n' } },
    criteria: ['The output contains 6765', 'exit code is 0', 'does not contain secret'],
  })
  t.equal(err.code, 'VALIDATION_FAILED')
  t.equal(err.retryable, false)
  t.match(err.message, /^2 of 3 checks failed: /)
  t.match(err.message, /"The output contains 6765" \(deterministic\): not found in \d+ string/)
  t.match(err.message, /"exit code is 0" \(deterministic\): s1 exited with 1/)
  t.notMatch(err.message, /secret/)
})
