import t from 'tap'

import { call, executor } from './executor-fixture.js'
import { processesRunning, waitUntil } from './sandboxed-processes.js'

// Far above the timeouts set here and well below the 10 s default and the 30 s sleep, so a loaded
// machine (CI, other suites beside) cannot fail it, and a timeout that did not apply still does.
const SOON = 5_000

t.test('sleep 30 with timeout_ms 300 is COMMAND_TIMEOUT at its timeout, nothing left', async (t) => {
  const started = Date.now()
  await t.rejects(call(executor(), 'shell', { command: 'sleep', args: ['30'], timeout_ms: 300 }), {
    code: 'COMMAND_TIMEOUT',
    retryable: false,
  })
  t.ok(Date.now() - started < SOON, `took ${Date.now() - started} ms`)
  t.ok(await waitUntil(() => processesRunning(['/usr/bin/sleep', '30']).length === 0, 5000), 'no sleep survives')
})

t.test("the step's timeout bounds the input's", async (t) => {
  const started = Date.now()
  await t.rejects(call(executor(), 'shell', { command: 'sleep', args: ['30'], timeout_ms: 60_000 }, { timeoutMs: 300 }), {
    code: 'COMMAND_TIMEOUT',
  })
  t.ok(Date.now() - started < SOON, `took ${Date.now() - started} ms`)
})

t.test('the default wall clock applies when the input names none', async (t) => {
  const started = Date.now()
  await t.rejects(call(executor({ limits: { shellTimeoutMs: 200 } }), 'shell', { command: 'sleep', args: ['30'] }), {
    code: 'COMMAND_TIMEOUT',
  })
  t.ok(Date.now() - started < SOON, `took ${Date.now() - started} ms`)
})
