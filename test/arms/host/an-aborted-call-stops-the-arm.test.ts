import t from 'tap'
import { CapabilityIssuer } from '../../../src/auth/capability-issuer.js'
import { echoArm } from './echo-arm.js'
import { makeHost, request, tokenFor } from './servers.js'

t.test("an aborted call aborts the arm's signal and fails the step as STEP_ABORTED", async (t) => {
  const issuer = await CapabilityIssuer.open({})
  let armSignal: AbortSignal | undefined
  const host = makeHost(echoArm({ onSleepEnd: (s) => (armSignal = s) }), issuer.localVerifier())
  // signed before the clock starts: on a loaded machine signing and verifying can outlast the delay,
  // and a call aborted before the arm starts never reaches it (the second half of this test)
  const token = await tokenFor(issuer, 'sleep')
  const caller = new AbortController()
  setTimeout(() => caller.abort(), 300)
  const started = Date.now()
  const res = await host.execute(request({ tool: 'sleep', input: { ms: 5000 } }), token, caller.signal)
  t.ok(Date.now() - started < 2000)
  t.match(res, { status: 'failed', error: { code: 'STEP_ABORTED', retryable: true } })
  await new Promise((r) => setTimeout(r, 20)) // the host answers without waiting for the arm to unwind
  t.ok(armSignal?.aborted)

  armSignal = undefined
  const already = await host.execute(request({ tool: 'sleep', input: { ms: 10 } }), await tokenFor(issuer, 'sleep'), AbortSignal.abort())
  await new Promise((r) => setTimeout(r, 30))
  t.equal(armSignal, undefined, 'the arm was not called')
  t.match(already, { status: 'failed', error: { code: 'STEP_ABORTED' } }, 'a call aborted before it starts does not run')
})
