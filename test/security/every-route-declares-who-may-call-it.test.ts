// Every route of the reflex service and the orchestrator declares the permission it needs in the
// route table the HTTP layer enforces (a route cannot be declared without one). This walks the
// table: each route that needs a principal refuses a request without a credential with 401, one
// whose role lacks the permission with 403, before any handler or body parsing runs.
import t, { type Test } from 'tap'
import { createAuthenticator } from '../../src/auth/authenticator.js'
import type { Principal, Role } from '../../src/auth/principal.js'
import { createHttpApp, type HttpApp } from '../../src/http/app.js'
import { ROUTE_MODULES } from '../helpers/route-tables.js'

/** Tokens `role:<role>` stand for a principal with that one role. */
const byRole = {
  accepts: (token: string) => token.startsWith('role:'),
  verify: async (token: string): Promise<Principal | undefined> => {
    const role = token.slice('role:'.length) as Role
    return { id: `test:${role}`, tenant: 'acme', roles: [role], via: 'api-key' }
  },
}

async function service(t: Test, register: (app: HttpApp) => void) {
  const logger = { error() {}, warn() {} }
  const app = createHttpApp({
    name: 'walk',
    bodyLimitBytes: 1 << 20,
    logger,
    authenticate: createAuthenticator({ mode: 'required', verifiers: [byRole] }),
  })
  t.teardown(() => app.close())
  register(app)
  const port = await app.listen(0, '127.0.0.1')
  return { app, url: `http://127.0.0.1:${port}` }
}

const WRITE = new Set([
  'tasks:write',
  'knowledge:write',
  'cache:write',
  'arms:admin',
  'keys:admin',
  'metrics',
  'check',
  'webhooks:write',
  'webhooks:admin',
])

t.test('every route that needs a principal refuses none with 401 and a viewer with 403 where it must', async (t) => {
  // The route modules as the composition root registers them (test/helpers/route-tables.ts keeps the list true).
  const registerAll = (name: 'orchestrator' | 'reflex') => (app: HttpApp) => {
    for (const register of Object.values(ROUTE_MODULES[name])) register(app)
  }
  const orchestrator = await service(t, registerAll('orchestrator'))
  const reflex = await service(t, registerAll('reflex'))
  let guarded = 0
  for (const { app, url } of [orchestrator, reflex]) {
    for (const route of app.routes()) {
      const path = route.path.replace(/:\w+/g, 'x')
      const init = (authorization?: string): RequestInit => ({
        method: route.method,
        headers: { 'content-type': 'application/json', ...(authorization && { authorization }) },
        ...(route.method === 'POST' && { body: '{}' }),
      })
      const what = `${route.method} ${route.path} (${route.permission})`
      if (route.permission === 'public' || route.permission === 'capability') continue
      guarded++
      const anonymous = await fetch(url + path, init())
      t.equal(anonymous.status, 401, `${what}: no credential`)
      t.equal(anonymous.headers.get('www-authenticate'), 'Bearer', `${what}: the challenge`)
      t.match((await anonymous.json()).error, { code: 'UNAUTHORIZED', details: { field: 'authorization' } })
      const forged = await fetch(url + path, init('Bearer not-a-known-token'))
      t.equal(forged.status, 401, `${what}: an unknown credential`)
      await forged.body?.cancel()
      if (WRITE.has(route.permission)) {
        const viewer = await fetch(url + path, init('Bearer role:viewer'))
        t.equal(viewer.status, 403, `${what}: a viewer`)
        t.match((await viewer.json()).error, { code: 'FORBIDDEN', details: { field: 'authorization' } })
      }
    }
  }
  t.ok(guarded >= 25, `${guarded} guarded routes walked`)
})

t.test('a route needing a principal cannot be declared on an app without an authenticator', async (t) => {
  const app = createHttpApp({ name: 'bare', bodyLimitBytes: 1024, logger: { error() {}, warn() {} } })
  t.throws(
    () => app.route('GET', '/x', () => ({ body: 1 }), { permission: 'tasks:read' }),
    /needs 'tasks:read' but the app has no authenticator/,
  )
  t.doesNotThrow(() => app.route('GET', '/y', () => ({ body: 1 }), { permission: 'public' }))
  t.same(app.routes(), [{ method: 'GET', path: '/y', permission: 'public' }])
})
