import t from 'tap'
import { CapabilityIssuer } from '../../../src/auth/capability-issuer.js'
import { echoArm } from './echo-arm.js'
import { makeHost, request, tokenFor } from './servers.js'

t.test('a step past its timeout fails with STEP_TIMEOUT, retryable', async (t) => {
  const issuer = await CapabilityIssuer.open({})
  let armSignal: AbortSignal | undefined
  const host = makeHost(echoArm({ onSleepEnd: (s) => (armSignal = s) }), issuer.localVerifier())
  const signal = new AbortController().signal

  const started = Date.now()
  const res = await host.execute(request({ tool: 'sleep', input: { ms: 5000 }, timeout_ms: 100 }), await tokenFor(issuer, 'sleep'), signal)
  t.ok(Date.now() - started < 2000, 'answered at the timeout')
  t.match(res, { status: 'failed', error: { code: 'STEP_TIMEOUT', retryable: true } })
  await new Promise((r) => setTimeout(r, 20)) // the host answers without waiting for the arm to unwind
  t.ok(armSignal?.aborted, "the arm's signal aborted")
  t.ok(res.provenance.duration_ms >= 90)

  // an arm that ignores its signal is not waited for either
  const ignoring = Date.now()
  const stuck = await host.execute(
    request({ tool: 'sleep', input: { ms: 3000, ignore_signal: true }, timeout_ms: 100 }),
    await tokenFor(issuer, 'sleep'),
    signal,
  )
  t.ok(Date.now() - ignoring < 2000)
  t.match(stuck, { status: 'failed', error: { code: 'STEP_TIMEOUT' } })
})
