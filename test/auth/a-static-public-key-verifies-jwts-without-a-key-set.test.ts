// Without a key set URL, AUTH_PUBLIC_KEY names the one key tokens are signed with: PEM SPKI (its
// line breaks may be written \n, as in a one-line variable) or a JWK. Whatever kid a token names,
// it is checked against that key, for the algorithms its type signs with.
import t from 'tap'
import { createJwtVerifier } from '../../src/auth/jwt-verifier.js'
import { startServices } from '../helpers/servers.js'
import { AUDIENCE, check, ISSUER, publicPem, sign, signingKey } from './jwt-fixture.js'

t.test('a static public key, PEM or JWK, verifies tokens', async (t) => {
  for (const alg of ['RS256', 'ES256', 'EdDSA']) {
    const key = await signingKey(alg)
    const stranger = await signingKey(alg, key.kid)
    const pem = await publicPem(key)
    for (const [form, publicKey] of [
      ['PEM', pem],
      ['PEM on one line', pem.trim().replace(/\n/g, '\\n')],
      ['JWK', JSON.stringify(key.jwk)],
      ['JWK without kid or alg', JSON.stringify({ ...key.jwk, kid: undefined, alg: undefined })],
    ] as const) {
      const verifier = createJwtVerifier({ publicKey, issuer: ISSUER, audience: AUDIENCE })
      t.match(await verifier.verify(await sign(key)), { principal: { id: 'jwt:alice', tenant: 'acme' } }, `${alg}, ${form}`)
      t.match(await verifier.verify(await sign(key, {}, { kid: 'any-other' })), { principal: {} }, `${alg}, ${form}: any kid`)
      t.equal(await verifier.verify(await sign(stranger)), undefined, `${alg}, ${form}: another key under the same kid is refused`)
    }
  }
  const key = await signingKey('RS256')
  t.throws(() => createJwtVerifier({ publicKey: 'not a key', issuer: ISSUER, audience: AUDIENCE }), /PEM public key/)
  t.throws(
    () => createJwtVerifier({ publicKey: JSON.stringify({ kty: 'oct', k: 'c2VjcmV0' }), issuer: ISSUER, audience: AUDIENCE }),
    /secret/,
  )
  t.throws(
    () => createJwtVerifier({ jwksUrl: 'http://127.0.0.1:9/', publicKey: JSON.stringify(key.jwk), issuer: ISSUER, audience: AUDIENCE }),
    /exactly one/,
  )
})

t.test('over HTTP, the service takes tokens of AUTH_PUBLIC_KEY and no others', async (t) => {
  const key = await signingKey('ES256')
  const running = await startServices(
    t,
    { reflex: true },
    { AUTH: 'required', AUTH_PUBLIC_KEY: await publicPem(key), AUTH_ISSUER: ISSUER, AUTH_AUDIENCE: AUDIENCE },
  )
  const reflex = `http://127.0.0.1:${running.ports.reflex}`
  const ok = await check(reflex, await sign(key))
  t.equal(ok.status, 200)
  await ok.body?.cancel()
  const forged = await check(reflex, await sign(await signingKey('ES256', key.kid)))
  t.equal(forged.status, 401)
  await forged.body?.cancel()
})
