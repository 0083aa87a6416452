// When the identity provider's key set cannot be fetched, a token cannot be judged: the verifier
// throws AuthenticationUnavailableError and the service answers 503 SERVICE_UNAVAILABLE naming
// the identity provider (try again), not a 401 that would tell the client its token is bad.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { AuthenticationUnavailableError } from '../../src/auth/authenticator.js'
import { createJwtVerifier } from '../../src/auth/jwt-verifier.js'
import { check, handMade, jwtEnv, reflexTakingJwts, serveKeySet, settings, sign, signingKey } from './jwt-fixture.js'

t.test('a key set server that is down answers 503 with the error object', async (t) => {
  const key = await signingKey()
  const idp = await serveKeySet(t, key)
  await idp.close()
  const token = await sign(key)
  const warnings: object[] = []
  const verifier = createJwtVerifier(settings(idp.url), { log: { warn: (obj) => warnings.push(obj) } })
  const err = await verifier.verify(token).catch((e: unknown) => e)
  t.ok(err instanceof AuthenticationUnavailableError, 'the verifier says it cannot tell')
  t.match(err, { dependency: 'identity_provider' })
  await verifier.verify(token).catch(() => {})
  t.equal(warnings.length, 1, 'said in the log once, not once per request')
  t.match(warnings[0], { jwks_url: idp.url })

  const reflex = await reflexTakingJwts(t, jwtEnv(idp.url))
  const res = await check(reflex, token)
  t.equal(res.status, 503)
  const body = await res.json()
  t.match(body, {
    error: {
      code: 'SERVICE_UNAVAILABLE',
      message: /key set could not be fetched/,
      details: { field: 'identity_provider', constraint: 'must be reachable' },
      request_id: String,
    },
  })
  t.equal(res.headers.get('x-request-id'), body.error.request_id)
  const hmac = await check(reflex, handMade({ alg: 'HS256' }, { sub: 'mallory' }, 'c2ln'))
  t.equal(hmac.status, 401, 'a token refused before any key is looked up is still a 401')
  await hmac.body?.cancel()
})

t.test('a key set answered with an error status or not as JSON is unavailable too', async (t) => {
  const key = await signingKey()
  let reply = { status: 500, body: 'oops' }
  const server = createServer((_req, res) => res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => server.close(resolve)))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`
  const verifier = createJwtVerifier(settings(url), { cooldownMs: 0 })
  const token = await sign(key)
  for (const [status, body] of [
    [500, '{}'],
    [302, ''],
    [200, 'not json'],
    [200, '{"keys": "none"}'],
  ] as const) {
    reply = { status, body }
    t.ok((await verifier.verify(token).catch((e: unknown) => e)) instanceof AuthenticationUnavailableError, `${status} ${body}`)
  }
  reply = { status: 200, body: JSON.stringify({ keys: [key.jwk] }) }
  t.ok(await verifier.verify(token), 'back up: the token is taken')
})

t.test('tokens of known keys keep working while the key set cannot be fetched, until the cache ages', async (t) => {
  const key = await signingKey()
  const idp = await serveKeySet(t, key)
  const verifier = createJwtVerifier(settings(idp.url), { cacheMaxAgeMs: 500 })
  t.ok(await verifier.verify(await sign(key)))
  await idp.close()
  t.ok(await verifier.verify(await sign(key, { sub: 'bob' })), 'the cached key set still verifies')
  await new Promise((resolve) => setTimeout(resolve, 600))
  const err = await verifier.verify(await sign(key)).catch((e: unknown) => e)
  t.ok(err instanceof AuthenticationUnavailableError, 'a key set due a refetch that fails: unavailable')
})
