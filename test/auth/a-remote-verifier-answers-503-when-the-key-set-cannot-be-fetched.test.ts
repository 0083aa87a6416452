import t from 'tap'
import { CapabilityIssuer } from '../../src/auth/capability-issuer.js'
import { CapabilityError, KeySetUnavailableError, remoteVerifier } from '../../src/auth/capability-verifier.js'
import { echoArm } from '../arms/host/echo-arm.js'
import { makeHost, request, serveArm } from '../arms/host/servers.js'

t.test('a remote verifier answers 503, not a refusal, when the key set cannot be fetched', async (t) => {
  const issuer = await CapabilityIssuer.open({})
  const { token } = await issuer.sign({ arm: 'echo', taskId: 'task-1', tenant: 'acme', stepId: 's1', scope: ['echo'], ttlSeconds: 30 })
  const verifier = remoteVerifier('http://127.0.0.1:9') // nothing listens
  const expect = { arm: 'echo', tool: 'echo', taskId: 'task-1', tenant: 'acme', stepId: 's1' }
  const err = await verifier.verify(token, expect).catch((e: unknown) => e)
  t.ok(err instanceof KeySetUnavailableError)
  t.notOk(err instanceof CapabilityError)

  const url = await serveArm(t, makeHost(echoArm(), verifier))
  const res = await fetch(`${url}/execute`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(request({ tool: 'echo' })),
  })
  t.equal(res.status, 503)
  t.match(await res.json(), { error: { code: 'SERVICE_UNAVAILABLE', details: { field: 'orchestrator' } } })

  const missing = await verifier.verify(undefined, expect).catch((e: unknown) => e)
  t.match(missing, { reason: 'TOKEN_MISSING', forbidden: false }, 'a missing token needs no key set')
})
