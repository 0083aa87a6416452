import t from 'tap'
import { HttpArmClient } from '../../src/arms/arm-client.js'
import { InProcessArmEndpoint } from '../../src/arms/in-process-endpoint.js'
import { echoArm } from '../arms/host/echo-arm.js'
import { makeHost, serveArm } from '../arms/host/servers.js'
import { endpointTarget, hostTarget, httpTarget, refusesBadTokens } from '../arms/host/token-refusals.js'

const step = { arm: 'echo', tool: 'echo', input: { hello: 'world' } }

t.test('the host itself', (t) => refusesBadTokens(t, step, async (issuer) => hostTarget(makeHost(echoArm(), issuer.localVerifier()))))

t.test('the in-process endpoint', (t) =>
  refusesBadTokens(t, step, async (issuer) => endpointTarget(new InProcessArmEndpoint(makeHost(echoArm(), issuer.localVerifier())))),
)

t.test('over HTTP, the raw error object', (t) =>
  refusesBadTokens(t, step, async (issuer) => httpTarget(await serveArm(t, makeHost(echoArm(), issuer.localVerifier())))),
)

t.test('over HTTP through HttpArmClient', (t) =>
  refusesBadTokens(t, step, async (issuer) =>
    endpointTarget(new HttpArmClient(await serveArm(t, makeHost(echoArm(), issuer.localVerifier())))),
  ),
)
