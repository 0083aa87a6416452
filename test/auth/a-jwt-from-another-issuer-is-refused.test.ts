// A token must name AUTH_ISSUER as its `iss`: a token of another issuer (or of none) is refused,
// even when signed by a key of the key set.
import t from 'tap'
import { createJwtVerifier } from '../../src/auth/jwt-verifier.js'
import { refusedOverHttp, serveKeySet, settings, sign, signingKey } from './jwt-fixture.js'

t.test('a token of another issuer is refused', async (t) => {
  const key = await signingKey()
  const idp = await serveKeySet(t, key)
  const verifier = createJwtVerifier(settings(idp.url))
  const other = await sign(key, { iss: 'https://evil.example.test/' })
  t.equal(await verifier.verify(other), undefined, 'another issuer')
  t.equal(await verifier.verify(await sign(key, { iss: undefined })), undefined, 'no issuer')
  t.equal(await verifier.verify(await sign(key, { iss: 'https://idp.example.test' })), undefined, 'the issuer must match exactly')
  await refusedOverHttp(t, idp.url, other)
})
