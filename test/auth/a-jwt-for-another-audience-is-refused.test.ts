// A token must carry AUTH_AUDIENCE in its `aud` (a string or a list): a token the identity
// provider issued for another service is refused here.
import t from 'tap'
import { createJwtVerifier } from '../../src/auth/jwt-verifier.js'
import { AUDIENCE, refusedOverHttp, serveKeySet, settings, sign, signingKey } from './jwt-fixture.js'

t.test('a token for another audience is refused', async (t) => {
  const key = await signingKey()
  const idp = await serveKeySet(t, key)
  const verifier = createJwtVerifier(settings(idp.url))
  const other = await sign(key, { aud: 'billing' })
  t.equal(await verifier.verify(other), undefined, 'another audience')
  t.equal(await verifier.verify(await sign(key, { aud: undefined })), undefined, 'no audience')
  t.ok(await verifier.verify(await sign(key, { aud: ['billing', AUDIENCE] })), 'a list that includes this audience is fine')
  await refusedOverHttp(t, idp.url, other)
})
