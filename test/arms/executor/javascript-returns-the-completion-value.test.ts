import t from 'tap'

import { call, executor } from './executor-fixture.js'

const arm = executor()
t.teardown(() => arm.close?.())

t.test('fib(20) is 6765', async (t) => {
  const out = await call(arm, 'javascript', { code: 'function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) }\nfib(20)' })
  t.match(out, { result: 6765, console: [] })
  t.type((out as { duration_ms: number }).duration_ms, 'number')
})

t.test('an async result is awaited', async (t) => {
  t.match(await call(arm, 'javascript', { code: '(async () => { await null; return { ok: [1, 2] } })()' }), { result: { ok: [1, 2] } })
})

t.test('values JSON has no form for are converted as documented', async (t) => {
  t.match(await call(arm, 'javascript', { code: 'undefined' }), { result: null })
  t.match(await call(arm, 'javascript', { code: '(function f() {})' }), { result: null })
  t.match(await call(arm, 'javascript', { code: '[1, undefined, () => 1, 2n ** 70n]' }), {
    result: [1, null, null, '1180591620717411303424'],
  })
  t.match(await call(arm, 'javascript', { code: 'JSON.stringify = () => "spoofed"; ({ a: 1 })' }), { result: { a: 1 } })
})

t.test('a cycle is SCRIPT_ERROR', async (t) => {
  await t.rejects(call(arm, 'javascript', { code: 'const o = {}; o.self = o; o' }), {
    code: 'SCRIPT_ERROR',
    message: /cannot be converted to JSON/,
  })
})

t.test('the host is not reachable from the script', async (t) => {
  const out = await call(arm, 'javascript', {
    code: '[typeof require, typeof process, typeof fetch, typeof setTimeout, typeof globalThis.std, typeof globalThis.os]',
  })
  t.match(out, { result: ['undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined'] })
})

t.test('each call gets a fresh context', async (t) => {
  await call(arm, 'javascript', { code: 'globalThis.leak = 42' })
  t.match(await call(arm, 'javascript', { code: 'typeof leak' }), { result: 'undefined' })
})
