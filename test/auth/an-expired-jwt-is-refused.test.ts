// A token past its `exp` is refused; a few seconds past it is clock skew between the identity
// provider and this service, and still taken.
import t from 'tap'
import { createJwtVerifier, JWT_CLOCK_TOLERANCE_SECONDS } from '../../src/auth/jwt-verifier.js'
import { nowSeconds, refusedOverHttp, serveKeySet, settings, sign, signingKey } from './jwt-fixture.js'

t.test('an expired token is refused, in process and over HTTP', async (t) => {
  const key = await signingKey()
  const idp = await serveKeySet(t, key)
  const verifier = createJwtVerifier(settings(idp.url))
  const now = nowSeconds()
  const expired = await sign(key, { iat: now - 600, exp: now - JWT_CLOCK_TOLERANCE_SECONDS - 30 })
  t.equal(await verifier.verify(expired), undefined, 'expired')
  t.ok(await verifier.verify(await sign(key, { exp: now - 1 })), 'a second past exp is within the clock tolerance')
  t.equal(await verifier.verify(await sign(key, { exp: undefined })), undefined, 'a token without exp never expires: refused')
  await refusedOverHttp(t, idp.url, expired)
})
