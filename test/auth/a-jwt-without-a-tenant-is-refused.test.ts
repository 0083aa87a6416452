// Every principal acts in one tenant: a token without the tenant claim (AUTH_TENANT_CLAIM, default
// `tenant`), or with one that is not a non-empty string, is invalid.
import t from 'tap'
import { createJwtVerifier } from '../../src/auth/jwt-verifier.js'
import { refusedOverHttp, serveKeySet, settings, sign, signingKey } from './jwt-fixture.js'

t.test('a token without a tenant claim is refused', async (t) => {
  const key = await signingKey()
  const idp = await serveKeySet(t, key)
  const verifier = createJwtVerifier(settings(idp.url))
  const homeless = await sign(key, { tenant: undefined })
  t.equal(await verifier.verify(homeless), undefined, 'no tenant')
  t.equal(await verifier.verify(await sign(key, { tenant: '' })), undefined, 'an empty tenant')
  t.equal(await verifier.verify(await sign(key, { tenant: ['acme'] })), undefined, 'a list is not a tenant')
  t.equal(await verifier.verify(await sign(key, { tenant: 'x'.repeat(257) })), undefined, 'nor 257 characters')
  const elsewhere = createJwtVerifier({ ...settings(idp.url), tenantClaim: 'org' })
  t.equal(await elsewhere.verify(await sign(key)), undefined, 'the claim the configuration names is the one read')
  t.match(await elsewhere.verify(await sign(key, { org: 'globex' })), { principal: { tenant: 'globex' } })
  await refusedOverHttp(t, idp.url, homeless)
})
