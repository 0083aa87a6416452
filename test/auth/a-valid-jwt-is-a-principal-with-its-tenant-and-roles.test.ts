// A token of the identity provider, signed with a key of its key set, for this issuer and
// audience, is the principal jwt:<sub> in the token's tenant with its roles: both the reflex
// service and the orchestrator take it, and it opens the routes its roles allow, and only those.
import t from 'tap'
import { createJwtVerifier } from '../../src/auth/jwt-verifier.js'
import { startServices } from '../helpers/servers.js'
import { jwtEnv, nowSeconds, serveKeySet, settings, sign, signingKey } from './jwt-fixture.js'

t.test('a valid token is jwt:<sub> in its tenant with its roles, for each default algorithm', async (t) => {
  const keys = await Promise.all(['RS256', 'ES256', 'EdDSA'].map((alg) => signingKey(alg)))
  const idp = await serveKeySet(t, ...keys)
  const verifier = createJwtVerifier(settings(idp.url))
  for (const key of keys) {
    const exp = nowSeconds() + 120
    const token = await sign(key, { sub: 'alice@example.com', tenant: 'acme', roles: ['member', 'viewer'], exp })
    t.ok(verifier.accepts(token), `${key.alg}: its form is taken`)
    t.same(
      await verifier.verify(token),
      { principal: { id: 'jwt:alice@example.com', tenant: 'acme', roles: ['member', 'viewer'], via: 'jwt' }, expiresAt: exp * 1000 },
      `${key.alg}: the principal, valid until exp`,
    )
  }
  t.equal(idp.fetches, 1, 'the key set is fetched once and cached')
  t.notOk(verifier.accepts('gk_0123456789abcdef'), 'an API key is not a JWT')
  t.notOk(verifier.accepts('gk_a.b.c'), 'nor anything in the form of one')
  t.notOk(verifier.accepts('only.two'), 'two parts are not a JWT')
  t.notOk(verifier.accepts('a.b+c.d'), 'nor parts outside base64url')
})

t.test('over HTTP, the token opens the routes its roles allow on both services', async (t) => {
  const key = await signingKey('ES256')
  const idp = await serveKeySet(t, key)
  const running = await startServices(t, { reflex: true, orchestrator: true }, jwtEnv(idp.url))
  const reflex = `http://127.0.0.1:${running.ports.reflex}`
  const orchestrator = `http://127.0.0.1:${running.ports.orchestrator}`
  const as = async (roles: string[]) => `Bearer ${await sign(key, { roles })}`
  const member = await as(['member'])
  const viewer = await as(['viewer'])
  const service = await as(['service'])
  const admin = await as(['admin'])

  const call = async (url: string, authorization: string | undefined, method = 'GET', body?: unknown): Promise<number> => {
    const res = await fetch(url, {
      method,
      headers: { 'content-type': 'application/json', ...(authorization && { authorization }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    })
    await res.body?.cancel()
    return res.status
  }
  const checkText = { text: 'what is the capital of France?' }

  // The reflex service.
  t.equal(await call(`${reflex}/api/v1/check`, undefined, 'POST', checkText), 401, 'no credential')
  t.equal(await call(`${reflex}/api/v1/check`, member, 'POST', checkText), 200, 'a member may check')
  t.equal(await call(`${reflex}/api/v1/check`, service, 'POST', checkText), 200, 'a service may check')
  t.equal(await call(`${reflex}/api/v1/check`, viewer, 'POST', checkText), 403, 'a viewer may not')
  t.equal(await call(`${reflex}/api/v1/stats`, member, 'GET'), 403, 'a member may not read the metrics')
  t.equal(await call(`${reflex}/api/v1/stats`, admin, 'GET'), 200, 'an admin may')

  // The orchestrator.
  t.equal(await call(`${orchestrator}/api/v1/tasks`, undefined), 401, 'no credential')
  t.equal(await call(`${orchestrator}/api/v1/tasks`, viewer), 200, 'a viewer may list tasks')
  t.equal(await call(`${orchestrator}/api/v1/tasks`, service), 200, 'a service may list tasks')
  t.equal(await call(`${orchestrator}/api/v1/arms`, viewer), 200, 'a viewer may list the arms')
  t.equal(await call(`${orchestrator}/api/v1/tasks`, viewer, 'POST', { goal: 'x' }), 403, 'a viewer may not submit a task')
  t.equal(await call(`${orchestrator}/api/v1/knowledge/search`, service, 'POST', { query: 'x' }), 403, 'a service may not search knowledge')
  const register = { name: 'translator', url: 'http://127.0.0.1:9' }
  t.equal(await call(`${orchestrator}/api/v1/arms/register`, member, 'POST', register), 403, 'a member may not register an arm')
  t.not(await call(`${orchestrator}/api/v1/arms/register`, admin, 'POST', {}), 403, 'an admin may (here, a 400 for the empty body)')
  t.equal(
    await call(`${orchestrator}/api/v1/tasks`, `Bearer ${await sign(key, { roles: ['owner'] })}`),
    403,
    'a role unknown here grants nothing',
  )
})
