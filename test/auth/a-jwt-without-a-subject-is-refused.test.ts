// The principal is the token's `sub`: a token without one (or with an empty or non-string one) is
// refused, however well signed.
import t from 'tap'
import { createJwtVerifier } from '../../src/auth/jwt-verifier.js'
import { refusedOverHttp, serveKeySet, settings, sign, signingKey } from './jwt-fixture.js'

t.test('a token without a subject is refused', async (t) => {
  const key = await signingKey()
  const idp = await serveKeySet(t, key)
  const verifier = createJwtVerifier(settings(idp.url))
  const nobody = await sign(key, { sub: undefined })
  t.equal(await verifier.verify(nobody), undefined, 'no sub')
  t.equal(await verifier.verify(await sign(key, { sub: '' })), undefined, 'an empty sub')
  await refusedOverHttp(t, idp.url, nobody)
})
