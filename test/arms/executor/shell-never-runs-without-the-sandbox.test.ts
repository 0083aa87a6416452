import t from 'tap'

import { call, executor } from './executor-fixture.js'

t.test('a missing bubblewrap is SANDBOX_UNAVAILABLE, and health says so', async (t) => {
  const arm = executor({ bwrapPath: '/nonexistent/bwrap' })
  await t.rejects(call(arm, 'shell', { command: 'true' }), { code: 'SANDBOX_UNAVAILABLE', retryable: false, message: /not found/ })
  const health = await arm.health!()
  t.equal(health.status, 'degraded')
  t.match(health.checks, { shell_sandbox: { ok: false }, javascript: { ok: true } })
})

t.test('with bubblewrap present, health is healthy', async (t) => {
  const health = await executor().health!()
  t.equal(health.status, 'healthy')
  t.match(health.checks, { shell_sandbox: { ok: true }, javascript: { ok: true }, shell_commands_missing: [] })
})
