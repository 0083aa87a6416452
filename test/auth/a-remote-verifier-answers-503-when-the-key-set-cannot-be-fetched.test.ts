import t from 'tap'
import { CapabilityIssuer } from '../../src/auth/capability-issuer.js'
import { CapabilityError, remoteVerifier } from '../../src/auth/capability-verifier.js'
import { HttpError } from '../../src/http/errors.js'

t.test('a remote verifier answers 503, not a refusal, when the key set cannot be fetched', async (t) => {
  const issuer = await CapabilityIssuer.open({})
  const { token } = await issuer.sign({ arm: 'echo', taskId: 't', stepId: 's', scope: ['echo'], ttlSeconds: 30 })
  const verifier = remoteVerifier('http://127.0.0.1:9') // nothing listens
  const err = await verifier.verify(token, { arm: 'echo', tool: 'echo', taskId: 't', stepId: 's' }).catch((e: unknown) => e)
  t.ok(err instanceof HttpError)
  t.notOk(err instanceof CapabilityError)
  t.match(err, { status: 503, code: 'SERVICE_UNAVAILABLE', details: { field: 'orchestrator' } })

  const missing = await verifier.verify(undefined, { arm: 'echo', tool: 'echo', taskId: 't', stepId: 's' }).catch((e: unknown) => e)
  t.match(missing, { status: 401, reason: 'TOKEN_MISSING' }, 'a missing token needs no key set')
})
