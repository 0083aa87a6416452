import t from 'tap'

import { JS_RESULT, judgeError, SHELL_OK, verdict } from './judge-fixture.js'

t.test('passes when every reported exit code is the expected one', async (t) => {
  t.ok(await verdict({ deps: { s1: SHELL_OK, s2: JS_RESULT }, input: { checks: [{ type: 'exit_code', equals: 0 }] } }))
})

t.test('fails naming the step that exited otherwise', async (t) => {
  const err = await judgeError({
    deps: { s1: SHELL_OK, s2: { ...SHELL_OK, exit_code: 2 } },
    input: { checks: [{ type: 'exit_code', equals: 0 }] },
  })
  t.match(err.message, /exit code is 0.*s2 exited with 2/)
})

t.test('fails when no dependency ran a command', async (t) => {
  const err = await judgeError({ deps: { s1: JS_RESULT }, input: { checks: [{ type: 'exit_code', equals: 0 }] } })
  t.match(err.message, /no dependency output reports an exit code/)
})
