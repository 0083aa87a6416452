// A capability token names the task's tenant, and the verified claims carry it to the arm. A token
// signed before tenants existed names none: it is the default tenant's, where every task of that
// time is. A `tenant` claim that is not a non-empty string makes the token invalid.
import { exportPKCS8, generateKeyPair, SignJWT } from 'jose'
import t from 'tap'
import { CapabilityIssuer } from '../../src/auth/capability-issuer.js'
import { CAPABILITY_ISSUER, CapabilityError } from '../../src/auth/capability-verifier.js'

t.test("a token names its task's tenant, or is the default tenant's", async (t) => {
  const pair = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true })
  const issuer = await CapabilityIssuer.open({ privateKey: await exportPKCS8(pair.privateKey) })
  t.teardown(() => issuer.close())
  const verifier = issuer.localVerifier()
  const expect = { arm: 'retriever', tool: 'search', taskId: 'task-1', stepId: 's1' }

  const { token } = await issuer.sign({
    arm: 'retriever',
    taskId: 'task-1',
    tenant: 'acme',
    stepId: 's1',
    scope: ['search'],
    ttlSeconds: 60,
  })
  t.equal((await verifier.verify(token, expect)).tenant, 'acme')

  const signed = (claims: Record<string, unknown>) => {
    const now = Math.floor(Date.now() / 1000)
    return new SignJWT({ step: 's1', scope: ['search'], ...claims })
      .setProtectedHeader({ alg: 'EdDSA', kid: issuer.kid })
      .setIssuer(CAPABILITY_ISSUER)
      .setAudience('retriever')
      .setSubject('task-1')
      .setJti('j')
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(pair.privateKey)
  }
  t.equal((await verifier.verify(await signed({}), expect)).tenant, 'default', 'no tenant claim: the default tenant')
  for (const tenant of ['', 42, ['acme'], null]) {
    await t.rejects(
      verifier.verify(await signed({ tenant }), expect),
      new CapabilityError('TOKEN_INVALID', 'The capability token has no valid tenant'),
    )
  }
})
