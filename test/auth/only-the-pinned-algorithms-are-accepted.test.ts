// The signature algorithms are pinned by the configuration (AUTH_ALGORITHMS, default RS256, ES256,
// EdDSA), never chosen by the token: a token signed with another algorithm is refused even when
// the key set holds its key.
import t from 'tap'
import { createJwtVerifier } from '../../src/auth/jwt-verifier.js'
import { check, jwtEnv, reflexTakingJwts, serveKeySet, settings, sign, signingKey } from './jwt-fixture.js'

t.test('only the pinned algorithms are accepted', async (t) => {
  const ps256 = await signingKey('PS256')
  const es384 = await signingKey('ES384')
  const rs256 = await signingKey('RS256')
  const idp = await serveKeySet(t, ps256, es384, rs256)
  const byDefault = createJwtVerifier(settings(idp.url))
  t.equal(await byDefault.verify(await sign(ps256)), undefined, 'PS256 is not among the defaults')
  t.equal(await byDefault.verify(await sign(es384)), undefined, 'nor ES384')
  t.ok(await byDefault.verify(await sign(rs256)), 'RS256 is')

  const pinned = createJwtVerifier({ ...settings(idp.url), algorithms: ['PS256', 'ES384'] })
  t.ok(await pinned.verify(await sign(ps256)), 'PS256 when listed')
  t.ok(await pinned.verify(await sign(es384)), 'ES384 when listed')
  t.equal(await pinned.verify(await sign(rs256)), undefined, 'and RS256 no longer')

  const reflex = await reflexTakingJwts(t, jwtEnv(idp.url, { AUTH_ALGORITHMS: 'PS256' }))
  for (const [key, status] of [
    [ps256, 200],
    [rs256, 401],
  ] as const) {
    const res = await check(reflex, await sign(key))
    t.equal(res.status, status, `over HTTP with AUTH_ALGORITHMS=PS256: ${key.alg}`)
    await res.body?.cancel()
  }
})
