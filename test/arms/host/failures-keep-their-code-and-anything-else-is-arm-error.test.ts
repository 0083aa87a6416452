import t from 'tap'
import { HttpArmClient } from '../../../src/arms/arm-client.js'
import { CapabilityIssuer } from '../../../src/auth/capability-issuer.js'
import { echoArm } from './echo-arm.js'
import { makeHost, request, serveArm, tokenFor } from './servers.js'

t.test('ArmError keeps its code, a plain throw is ARM_ERROR without a stack, non-JSON output is ARM_BAD_OUTPUT', async (t) => {
  const issuer = await CapabilityIssuer.open({})
  const host = makeHost(echoArm(), issuer.localVerifier())
  // over HTTP, so what is checked is what a remote orchestrator receives
  const client = new HttpArmClient(await serveArm(t, host))
  const signal = new AbortController().signal
  const run = async (tool: string, input = {}) => client.execute(request({ tool, input }), await tokenFor(issuer, tool), signal)

  t.match(await run('fail', { code: 'SHELL_DENIED', retryable: false }), {
    status: 'failed',
    error: { code: 'SHELL_DENIED', message: 'it failed', retryable: false },
  })
  t.match(await run('fail', { code: 'SANDBOX_BUSY', retryable: true }), {
    status: 'failed',
    error: { code: 'SANDBOX_BUSY', retryable: true },
  })

  const crashed = await run('crash')
  t.match(crashed, { status: 'failed', error: { code: 'ARM_ERROR', message: 'boom', retryable: true } })
  t.notMatch(JSON.stringify(crashed), /at .*\.ts:\d+/, 'no stack trace')

  t.match(await run('bad_output'), { status: 'failed', error: { code: 'ARM_BAD_OUTPUT', retryable: false } })
})
