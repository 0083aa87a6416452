import t from 'tap'

import { call, executor } from './executor-fixture.js'

const arm = executor()
t.teardown(() => arm.close?.())

// Start the worker first: under the tests' TypeScript loader a worker takes seconds to boot,
// and the timings below are about the script, not the boot.
t.before(async () => {
  await call(arm, 'javascript', { code: '0' })
})

t.test('an infinite loop stops with SCRIPT_TIMEOUT', async (t) => {
  const started = Date.now()
  await t.rejects(call(arm, 'javascript', { code: 'while (true) {}', timeout_ms: 300 }), { code: 'SCRIPT_TIMEOUT', retryable: false })
  // Below the 5 s default (which would end it otherwise), far above a loaded machine's delays.
  t.ok(Date.now() - started < 4000, `took ${Date.now() - started} ms`)
})

t.test('the default time limit (5 s) applies, and bounds async jobs too', async (t) => {
  const started = Date.now()
  await t.rejects(call(arm, 'javascript', { code: '(async () => { for (;;) await null })()' }), {
    code: 'SCRIPT_TIMEOUT',
    message: /5000 ms/,
  })
  t.ok(Date.now() - started < 15_000, `took ${Date.now() - started} ms`) // the message names the limit; this, that it ended
})

t.test('a huge allocation stops with SCRIPT_OUT_OF_MEMORY', async (t) => {
  await t.rejects(call(arm, 'javascript', { code: 'new Array(1e8).fill(0)' }), { code: 'SCRIPT_OUT_OF_MEMORY', retryable: false })
  await t.rejects(call(arm, 'javascript', { code: '"x".repeat(64 * 1024 * 1024)' }), { code: 'SCRIPT_OUT_OF_MEMORY' })
})

t.test('deep recursion is a SCRIPT_ERROR, not a crash of the host', async (t) => {
  await t.rejects(call(arm, 'javascript', { code: 'function f() { return f() } f()' }), { code: 'SCRIPT_ERROR', message: /stack overflow/ })
})

t.test('after hitting limits, the next call runs normally', async (t) => {
  await t.rejects(call(arm, 'javascript', { code: 'new Array(1e8).fill(0)' }))
  t.match(await call(arm, 'javascript', { code: '1 + 1' }), { result: 2 })
})
