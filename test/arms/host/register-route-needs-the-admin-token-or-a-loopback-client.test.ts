import pino from 'pino'
import t, { type Test } from 'tap'
import { armAddressPolicy } from '../../../src/arms/arm-address.js'
import { ArmRegistry } from '../../../src/arms/registry.js'
import { createAuthenticator } from '../../../src/auth/authenticator.js'
import { CapabilityIssuer } from '../../../src/auth/capability-issuer.js'
import { createHttpApp } from '../../../src/http/app.js'
import { registerArmsRoutes } from '../../../src/orchestrator/arms-routes.js'
import { echoArm } from './echo-arm.js'
import { makeHost, serveArm } from './servers.js'

// The arms these tests register listen on loopback: the allowance a deployment would set.
const LOOPBACK = armAddressPolicy(['127.0.0.0/8'])

// not test/helpers/servers.ts: that one loads the whole app
function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
}

/** A member of tenant acme: authenticated, but without the arms:admin permission. */
const MEMBER_TOKEN = 'member-token'
const member = {
  accepts: (token: string) => token === MEMBER_TOKEN,
  verify: async () => ({ id: 'm1', tenant: 'acme', roles: ['member' as const], via: 'api-key' as const }),
}

/** An orchestrator serving the arms routes: with `adminToken`, auth required; without, auth off. */
async function orchestrator(t: Test, adminToken?: string): Promise<string> {
  const issuer = await CapabilityIssuer.open({})
  const registry = await ArmRegistry.open({ addresses: LOOPBACK, builtin: new Map() })
  const authenticate =
    adminToken === undefined
      ? createAuthenticator({ mode: 'off' })
      : createAuthenticator({ mode: 'required', adminToken, verifiers: [member] })
  // trustProxy, so a test can pose as a remote client with X-Forwarded-For
  const app = createHttpApp({
    name: 'orchestrator',
    bodyLimitBytes: 1 << 20,
    logger: pino({ level: 'silent' }),
    trustProxy: true,
    authenticate,
  })
  registerArmsRoutes(app, { registry, issuer })
  const port = await app.listen(0, '127.0.0.1')
  t.teardown(() => app.close())
  return `http://127.0.0.1:${port}`
}

t.test('with auth required, registration needs an admin credential', async (t) => {
  const base = await orchestrator(t, 'sesame-0123456789')
  const arm = await serveArm(t, makeHost(echoArm({ name: 'translator' }), (await CapabilityIssuer.open({})).localVerifier()))
  const body = { name: 'translator', url: arm }

  const none = await postJson(`${base}/api/v1/arms/register`, body)
  t.equal(none.status, 401)
  t.equal(((await none.json()) as { error: { code: string } }).error.code, 'UNAUTHORIZED')
  const wrong = await postJson(`${base}/api/v1/arms/register`, body, { authorization: 'Bearer sesame-9876543210' })
  t.equal(wrong.status, 401, 'a credential that is none')
  t.equal(((await wrong.json()) as { error: { code: string } }).error.code, 'UNAUTHORIZED')
  const notAdmin = await postJson(`${base}/api/v1/arms/register`, body, { authorization: `Bearer ${MEMBER_TOKEN}` })
  t.equal(notAdmin.status, 403, "a member's credential")
  t.equal(((await notAdmin.json()) as { error: { code: string } }).error.code, 'FORBIDDEN')

  const right = await postJson(`${base}/api/v1/arms/register`, body, { authorization: 'Bearer sesame-0123456789' })
  t.equal(right.status, 201)
  t.match(await right.json(), { name: 'translator', location: arm, health: { status: 'healthy' } })

  t.equal((await fetch(`${base}/api/v1/arms`)).status, 401, 'listing arms needs a credential too')
  const auth = { headers: { authorization: 'Bearer sesame-0123456789' } }
  const list = await fetch(`${base}/api/v1/arms`, auth)
  t.equal(list.status, 200)
  t.match(await list.json(), { data: [{ name: 'translator' }], pagination: { page: 1, page_size: 20, total_pages: 1, total_items: 1 } })
  t.equal((await fetch(`${base}/api/v1/arms?page_size=0`, auth)).status, 400)

  const jwks = await fetch(`${base}/.well-known/jwks.json`)
  t.match(await jwks.json(), { keys: [{ kty: 'OKP', crv: 'Ed25519' }] })
})

t.test('with auth off, only loopback clients may register', async (t) => {
  const base = await orchestrator(t)
  const arm = await serveArm(t, makeHost(echoArm({ name: 'translator' }), (await CapabilityIssuer.open({})).localVerifier()))
  const remote = await postJson(`${base}/api/v1/arms/register`, { name: 'translator', url: arm }, { 'x-forwarded-for': '203.0.113.5' })
  t.equal(remote.status, 403)
  // trustProxy takes the left-most X-Forwarded-For, which the client writes itself
  const posing = await postJson(`${base}/api/v1/arms/register`, { name: 'translator', url: arm }, { 'x-forwarded-for': '127.0.0.1' })
  t.equal(posing.status, 403, 'a forwarded request claiming loopback is refused')
  const local = await postJson(`${base}/api/v1/arms/register`, { name: 'translator', url: arm })
  t.equal(local.status, 201)
  const bad = await postJson(`${base}/api/v1/arms/register`, { name: 'translator', url: 'ftp://x' })
  t.equal(bad.status, 400)
  t.equal(((await bad.json()) as { error: { details: { field: string } } }).error.details.field, 'url')
})
