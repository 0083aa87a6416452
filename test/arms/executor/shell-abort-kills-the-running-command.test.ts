import t from 'tap'

import { ArmError } from '../../../src/arms/contract.js'
import { call, executor } from './executor-fixture.js'
import { processesRunning, waitUntil } from './sandboxed-processes.js'

const SLEEP = ['/usr/bin/sleep', '31']

t.test('aborting the signal kills a running sleep at once, and it is gone', async (t) => {
  const controller = new AbortController()
  const running = call(executor(), 'shell', { command: 'sleep', args: ['31'] }, { signal: controller.signal })
  t.ok(await waitUntil(() => processesRunning(SLEEP).length > 0, 5000), 'sleep started in the sandbox')
  const reason = new ArmError('CANCELLED', 'task cancelled', false)
  const aborted = Date.now()
  controller.abort(reason)
  await t.rejects(running, reason, "the signal's reason is rethrown")
  // Far below the 10 s default timeout (which would end it otherwise), far above a loaded machine's delays.
  t.ok(Date.now() - aborted < 5000, `took ${Date.now() - aborted} ms`)
  t.ok(await waitUntil(() => processesRunning(SLEEP).length === 0, 5000), 'no sleep process survives')
})

t.test('an abort without an error reason is STEP_ABORTED', async (t) => {
  const controller = new AbortController()
  const running = call(executor(), 'shell', { command: 'sleep', args: ['31'] }, { signal: controller.signal })
  await waitUntil(() => processesRunning(SLEEP).length > 0, 5000)
  controller.abort('stop')
  await t.rejects(running, { code: 'STEP_ABORTED' })
  t.ok(await waitUntil(() => processesRunning(SLEEP).length === 0, 500))
})

t.test('an already aborted signal runs nothing', async (t) => {
  await t.rejects(call(executor(), 'shell', { command: 'sleep', args: ['31'] }, { signal: AbortSignal.abort('x') }), {
    code: 'STEP_ABORTED',
  })
})
