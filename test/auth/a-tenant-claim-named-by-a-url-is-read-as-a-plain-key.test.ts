// Identity providers namespace their custom claims with a URL (`https://example.com/tenant`): such a
// claim name is looked up as one key, its dots and slashes included. A name that is no key of the
// token is read as a dotted path into nested claims (`realm_access.roles`).
import t from 'tap'
import { createJwtVerifier } from '../../src/auth/jwt-verifier.js'
import { check, jwtEnv, reflexTakingJwts, serveKeySet, settings, sign, signingKey } from './jwt-fixture.js'

t.test('a claim named by a URL is read as a plain key, a dotted name otherwise as a path', async (t) => {
  const key = await signingKey()
  const idp = await serveKeySet(t, key)
  const verifier = createJwtVerifier({
    ...settings(idp.url),
    tenantClaim: 'https://example.com/tenant',
    rolesClaim: 'https://example.com/roles',
  })
  const token = await sign(key, {
    tenant: undefined,
    roles: undefined,
    'https://example.com/tenant': 'acme',
    'https://example.com/roles': ['viewer'],
  })
  t.match(await verifier.verify(token), { principal: { id: 'jwt:alice', tenant: 'acme', roles: ['viewer'] } })

  const nested = createJwtVerifier({ ...settings(idp.url), tenantClaim: 'org.id', rolesClaim: 'realm_access.roles' })
  t.match(await nested.verify(await sign(key, { org: { id: 'globex' }, realm_access: { roles: ['member', 'offline_access'] } })), {
    principal: { tenant: 'globex', roles: ['member'] },
  })
  t.match(
    await nested.verify(await sign(key, { 'org.id': 'initech', org: { id: 'globex' } })),
    { principal: { tenant: 'initech' } },
    'the key wins',
  )

  const reflex = await reflexTakingJwts(
    t,
    jwtEnv(idp.url, { AUTH_TENANT_CLAIM: 'https://example.com/tenant', AUTH_ROLES_CLAIM: 'https://example.com/roles' }),
  )
  const member = await sign(key, {
    tenant: undefined,
    roles: undefined,
    'https://example.com/tenant': 'acme',
    'https://example.com/roles': 'member',
  })
  const res = await check(reflex, member)
  t.equal(res.status, 200, 'over HTTP, with the variables naming the claims')
  await res.body?.cancel()
})
