import { decodeJwt, decodeProtectedHeader } from 'jose'
import t from 'tap'
import { CapabilityIssuer } from '../../src/auth/capability-issuer.js'

t.test('a token carries the step claims and lives for its ttl', async (t) => {
  const issuer = await CapabilityIssuer.open({})
  t.teardown(() => issuer.close())
  const { token, tokenId } = await issuer.sign({
    arm: 'executor',
    taskId: 'task-9',
    tenant: 'acme',
    stepId: 's3',
    scope: ['shell'],
    ttlSeconds: 300,
  })
  t.same(decodeProtectedHeader(token), { alg: 'EdDSA', typ: 'JWT', kid: issuer.kid })
  const claims = decodeJwt(token)
  t.match(claims, {
    iss: 'ganglion-orchestrator',
    aud: 'executor',
    sub: 'task-9',
    tenant: 'acme',
    step: 's3',
    scope: ['shell'],
    jti: tokenId,
  })
  t.equal(claims.exp! - claims.iat!, 300)
  t.ok(Math.abs(claims.iat! - Date.now() / 1000) < 5)

  const verified = await issuer.localVerifier().verify(token, { arm: 'executor', tool: 'shell', taskId: 'task-9', stepId: 's3' })
  t.same(verified, { arm: 'executor', taskId: 'task-9', tenant: 'acme', stepId: 's3', scope: ['shell'], tokenId, expiresAt: claims.exp })

  const other = await issuer.sign({ arm: 'executor', taskId: 'task-9', tenant: 'acme', stepId: 's3', scope: ['shell'], ttlSeconds: 300 })
  t.not(other.tokenId, tokenId, 'each token has its own id')
  for (const ttlSeconds of [0, -1, 1.5, 86_401]) {
    await t.rejects(
      issuer.sign({ arm: 'executor', taskId: 't', tenant: 'acme', stepId: 's', scope: [], ttlSeconds }),
      RangeError,
      `ttl ${ttlSeconds}`,
    )
  }
})
