import t from 'tap'

import { call, executor } from './executor-fixture.js'

const arm = executor()
t.teardown(() => arm.close?.())

t.test('a syntax error is SCRIPT_ERROR', async (t) => {
  await t.rejects(call(arm, 'javascript', { code: 'let = ;' }), { code: 'SCRIPT_ERROR', retryable: false, message: /^SyntaxError: / })
})

t.test('a thrown error is SCRIPT_ERROR with its name and message', async (t) => {
  await t.rejects(call(arm, 'javascript', { code: 'x + 1' }), { code: 'SCRIPT_ERROR', message: /^ReferenceError: .*x.* is not defined/ })
})

t.test('a rejected promise is SCRIPT_ERROR', async (t) => {
  await t.rejects(call(arm, 'javascript', { code: 'Promise.reject(new TypeError("nope"))' }), {
    code: 'SCRIPT_ERROR',
    message: 'TypeError: nope',
  })
})

t.test('a thrown non-error is SCRIPT_ERROR too', async (t) => {
  await t.rejects(call(arm, 'javascript', { code: 'throw 42' }), { code: 'SCRIPT_ERROR', message: /42/ })
})

t.test('a promise that never settles is SCRIPT_ERROR', async (t) => {
  await t.rejects(call(arm, 'javascript', { code: 'new Promise(() => {})' }), { code: 'SCRIPT_ERROR', message: /never settles/ })
})
