import t from 'tap'

import { JS_RESULT, judgeError, SHELL_OK, verdict } from './judge-fixture.js'

t.test('a number equals the javascript result and the stdout that prints it', async (t) => {
  t.ok(await verdict({ deps: { s1: JS_RESULT }, input: { checks: [{ type: 'equals', value: 6765 }] } }))
  t.ok(await verdict({ deps: { s1: SHELL_OK }, input: { checks: [{ type: 'equals', value: 6765 }] } }))
  t.ok(await verdict({ deps: { s1: SHELL_OK }, input: { checks: [{ type: 'equals', value: '6765' }] } }))
})

t.test('objects compare structurally, JSON text included', async (t) => {
  const deps = { s1: { ...SHELL_OK, stdout: '{"b":2,"a":[1]}\n' } }
  t.ok(await verdict({ deps, input: { checks: [{ type: 'equals', value: { a: [1], b: 2 } }] } }))
  t.ok(await verdict({ deps: { s1: { result: { a: 1 } } }, input: { checks: [{ type: 'equals', value: { a: 1 }, path: 's1.result' }] } }))
})

t.test('a different value fails and says what was there', async (t) => {
  const err = await judgeError({ deps: { s1: JS_RESULT }, input: { checks: [{ type: 'equals', value: 6766 }] } })
  t.match(err.message, /equals 6766.*s1\.result is 6765/)
})

t.test('an output with no result field needs a path', async (t) => {
  const err = await judgeError({ deps: { s1: { rows: [1] } }, input: { checks: [{ type: 'equals', value: 1 }] } })
  t.match(err.message, /give a path/)
})
