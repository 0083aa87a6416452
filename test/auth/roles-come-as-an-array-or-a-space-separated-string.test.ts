// The roles claim (AUTH_ROLES_CLAIM, default `roles`) may be a list or a space-separated string (as
// OAuth's `scope`); roles this service does not know are ignored, and a token without any is
// valid but may do nothing.
import t from 'tap'
import { createJwtVerifier } from '../../src/auth/jwt-verifier.js'
import { check, jwtEnv, reflexTakingJwts, serveKeySet, settings, sign, signingKey } from './jwt-fixture.js'

t.test('roles come as an array or a space-separated string; unknown ones are ignored', async (t) => {
  const key = await signingKey()
  const idp = await serveKeySet(t, key)
  const verifier = createJwtVerifier(settings(idp.url))
  const rolesOf = async (roles: unknown) => ((await verifier.verify(await sign(key, { roles }))) as any)?.principal.roles
  t.same(await rolesOf(['member', 'viewer']), ['member', 'viewer'], 'an array')
  t.same(await rolesOf('member viewer'), ['member', 'viewer'], 'a space-separated string')
  t.same(await rolesOf('  service\tadmin '), ['admin', 'service'], 'any whitespace, in the canonical order')
  t.same(await rolesOf(['member', 'owner', 42, 'Member', 'member']), ['member'], 'unknown, mistyped and repeated ones ignored')
  t.same(await rolesOf(undefined), [], 'none: a principal that may do nothing')
  t.same(await rolesOf({ member: true }), [], 'an object is no list of roles')

  const reflex = await reflexTakingJwts(t, jwtEnv(idp.url))
  for (const [roles, status] of [
    ['member', 200],
    [['service'], 200],
    ['viewer', 403],
    [[], 403],
  ] as const) {
    const res = await check(reflex, await sign(key, { roles }))
    t.equal(res.status, status, `over HTTP, roles ${JSON.stringify(roles)}`)
    await res.body?.cancel()
  }
})
