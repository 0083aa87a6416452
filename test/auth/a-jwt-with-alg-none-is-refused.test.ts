// An unsigned token (`alg: none`, an empty signature) is refused, even when AUTH_ALGORITHMS is
// given `none` programmatically: only asymmetric signature algorithms are ever accepted.
import t from 'tap'
import { createJwtVerifier } from '../../src/auth/jwt-verifier.js'
import { AUDIENCE, handMade, ISSUER, nowSeconds, refusedOverHttp, serveKeySet, settings, signingKey } from './jwt-fixture.js'

t.test('a hand-made token with alg none is refused', async (t) => {
  const key = await signingKey()
  const idp = await serveKeySet(t, key)
  const now = nowSeconds()
  const payload = { sub: 'mallory', tenant: 'acme', roles: ['admin'], iss: ISSUER, aud: AUDIENCE, iat: now, exp: now + 300 }
  const unsigned = handMade({ alg: 'none', typ: 'JWT' }, payload)
  const withKid = handMade({ alg: 'none', kid: key.kid }, payload)
  const verifier = createJwtVerifier(settings(idp.url))
  t.ok(verifier.accepts(unsigned), 'it has the form of a JWT, so this verifier judges it')
  t.equal(await verifier.verify(unsigned), undefined, 'refused')
  t.equal(await verifier.verify(withKid), undefined, 'naming a real kid changes nothing')
  t.equal(await verifier.verify(handMade({ alg: 'None' }, payload)), undefined, 'in any case')
  const listed = createJwtVerifier({ ...settings(idp.url), algorithms: ['none', 'RS256'] })
  t.equal(await listed.verify(unsigned), undefined, 'refused even when none is listed')
  t.throws(() => createJwtVerifier({ ...settings(idp.url), algorithms: ['none'] }), /no algorithm left/, 'none alone leaves nothing')
  await refusedOverHttp(t, idp.url, unsigned)
})
