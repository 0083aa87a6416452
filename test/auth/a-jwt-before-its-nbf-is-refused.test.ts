// A token whose `nbf` (not before) is still to come is refused until then, past the clock tolerance.
import t from 'tap'
import { createJwtVerifier, JWT_CLOCK_TOLERANCE_SECONDS } from '../../src/auth/jwt-verifier.js'
import { nowSeconds, refusedOverHttp, serveKeySet, settings, sign, signingKey } from './jwt-fixture.js'

t.test('a token not valid before a time to come is refused', async (t) => {
  const key = await signingKey()
  const idp = await serveKeySet(t, key)
  const verifier = createJwtVerifier(settings(idp.url))
  const now = nowSeconds()
  const early = await sign(key, { nbf: now + JWT_CLOCK_TOLERANCE_SECONDS + 60 })
  t.equal(await verifier.verify(early), undefined, 'not yet valid')
  t.ok(await verifier.verify(await sign(key, { nbf: now + 1 })), 'a second ahead is within the clock tolerance')
  t.ok(await verifier.verify(await sign(key, { nbf: now - 60 })), 'a past nbf is fine')
  await refusedOverHttp(t, idp.url, early)
})
