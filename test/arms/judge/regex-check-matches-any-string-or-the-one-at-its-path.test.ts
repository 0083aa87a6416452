import t from 'tap'

import { judgeError, SHELL_OK, verdict } from './judge-fixture.js'

t.test('passes when any string leaf matches, and honours flags', async (t) => {
  t.ok(await verdict({ deps: { s1: SHELL_OK }, input: { checks: [{ type: 'regex', pattern: '^\\d{4}$', flags: 'm' }] } }))
  t.ok(
    await verdict({
      deps: { s1: { ...SHELL_OK, stdout: 'FIB: 6765' } },
      input: { checks: [{ type: 'regex', pattern: 'fib: \\d+', flags: 'i' }] },
    }),
  )
})

t.test('with a path, reads only that value', async (t) => {
  const deps = { s1: { ...SHELL_OK, stderr: 'warning 42' } }
  t.ok(await verdict({ deps, input: { checks: [{ type: 'regex', pattern: 'warning', path: 's1.stderr' }] } }))
  const err = await judgeError({ deps, input: { checks: [{ type: 'regex', pattern: 'warning', path: 's1.stdout' }] } })
  t.match(err.message, /matches \/warning\/ at s1\.stdout.*no match in 1 string/)
})

t.test('fails when nothing matches', async (t) => {
  const err = await judgeError({ deps: { s1: SHELL_OK }, input: { checks: [{ type: 'regex', pattern: '^error' }] } })
  t.equal(err.code, 'VALIDATION_FAILED')
})
