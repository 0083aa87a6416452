// Algorithm confusion: a forger takes the public key's bytes (public, after all) as an HMAC secret
// and signs an HS256 token. A verifier that let the token choose its algorithm would check the
// MAC with the same bytes and accept it. Here HMAC is never accepted, even if listed, with a key
// set or with a static public key.
import { createHmac } from 'node:crypto'
import t from 'tap'
import { createJwtVerifier } from '../../src/auth/jwt-verifier.js'
import { AUDIENCE, ISSUER, nowSeconds, publicPem, refusedOverHttp, serveKeySet, settings, signingKey } from './jwt-fixture.js'

function hs256(secret: string | Buffer, header: object, payload: object): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url')
  const input = `${part(header)}.${part(payload)}`
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`
}

t.test('an HS256 token signed with the public key bytes is refused', async (t) => {
  const key = await signingKey('RS256')
  const idp = await serveKeySet(t, key)
  const pem = await publicPem(key)
  const now = nowSeconds()
  const payload = { sub: 'mallory', tenant: 'acme', roles: ['admin'], iss: ISSUER, aud: AUDIENCE, iat: now, exp: now + 300 }
  const forgedWithPem = hs256(pem, { alg: 'HS256', typ: 'JWT', kid: key.kid }, payload)
  const forgedWithJwk = hs256(JSON.stringify(key.jwk), { alg: 'HS256', kid: key.kid }, payload)
  const forgedWithN = hs256(Buffer.from(key.jwk.n!, 'base64url'), { alg: 'HS256', kid: key.kid }, payload)

  for (const [mode, verifier] of [
    ['key set', createJwtVerifier(settings(idp.url))],
    ['key set, HS256 listed', createJwtVerifier({ ...settings(idp.url), algorithms: ['HS256', 'RS256'] })],
    ['static PEM', createJwtVerifier({ publicKey: pem, issuer: ISSUER, audience: AUDIENCE })],
    ['static PEM, HS256 listed', createJwtVerifier({ publicKey: pem, issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256', 'RS256'] })],
  ] as const) {
    for (const forged of [forgedWithPem, forgedWithJwk, forgedWithN]) t.equal(await verifier.verify(forged), undefined, `${mode}: refused`)
  }
  await refusedOverHttp(t, idp.url, forgedWithPem, { AUTH_ALGORITHMS: 'RS256' })
})
