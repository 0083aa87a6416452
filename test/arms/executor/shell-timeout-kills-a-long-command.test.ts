import t from 'tap'

import { call, executor } from './executor-fixture.js'
import { processesRunning, waitUntil } from './sandboxed-processes.js'

t.test('sleep 30 with timeout_ms 300 is COMMAND_TIMEOUT within a second, nothing left', async (t) => {
  const started = Date.now()
  await t.rejects(call(executor(), 'shell', { command: 'sleep', args: ['30'], timeout_ms: 300 }), { code: 'COMMAND_TIMEOUT', retryable: false })
  t.ok(Date.now() - started < 1500, `took ${Date.now() - started} ms`)
  t.ok(await waitUntil(() => processesRunning(['/usr/bin/sleep', '30']).length === 0, 1000), 'no sleep survives')
})

t.test("the step's timeout bounds the input's", async (t) => {
  const started = Date.now()
  await t.rejects(call(executor(), 'shell', { command: 'sleep', args: ['30'], timeout_ms: 60_000 }, { timeoutMs: 300 }), { code: 'COMMAND_TIMEOUT' })
  t.ok(Date.now() - started < 1500)
})

t.test('the default wall clock applies when the input names none', async (t) => {
  const started = Date.now()
  await t.rejects(call(executor({ limits: { shellTimeoutMs: 200 } }), 'shell', { command: 'sleep', args: ['30'] }), { code: 'COMMAND_TIMEOUT' })
  t.ok(Date.now() - started < 1500)
})
