import t from 'tap'

import { ArmError } from '../../../src/arms/contract.js'
import { call, executor } from './executor-fixture.js'

const arm = executor()
t.teardown(() => arm.close?.())

// Start the worker first: under the tests' TypeScript loader a worker takes seconds to boot,
// and the timings below are about the script, not the boot.
t.before(async () => {
  await call(arm, 'javascript', { code: '0' })
})

t.test('aborting the signal stops a running infinite loop at once', async (t) => {
  const controller = new AbortController()
  const reason = new ArmError('CANCELLED', 'task cancelled', false)
  const running = call(arm, 'javascript', { code: 'for (;;) {}', timeout_ms: 20_000 }, { signal: controller.signal })
  // Well after the worker has started the loop: the service's event loop stays free meanwhile.
  await new Promise((resolve) => setTimeout(resolve, 500))
  const aborted = Date.now()
  controller.abort(reason)
  await t.rejects(running, reason, "the signal's reason is rethrown")
  // Far below the script's own 20 s limit (which would end it otherwise), far above a loaded machine's delays.
  t.ok(Date.now() - aborted < 5000, `stopped ${Date.now() - aborted} ms after the abort`)
})

t.test('an abort without an error reason is STEP_ABORTED', async (t) => {
  const controller = new AbortController()
  const running = call(arm, 'javascript', { code: 'for (;;) {}', timeout_ms: 20_000 }, { signal: controller.signal })
  setTimeout(() => controller.abort('stop'), 200)
  await t.rejects(running, { code: 'STEP_ABORTED' })
})

t.test('an already aborted signal runs nothing', async (t) => {
  await t.rejects(call(arm, 'javascript', { code: '1' }, { signal: AbortSignal.abort('x') }), { code: 'STEP_ABORTED' })
})
