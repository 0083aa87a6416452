// Only the admin role has keys:admin: a member's (or a viewer's, or a service's) key is a valid
// credential, yet refused with 403 on every key route, before any body is read; an admin's key,
// itself created with ADMIN_TOKEN, may create, list, read and revoke keys.
import { AS_ADMIN, bearer, keyServer } from './api-key-server.js'
import { onEachSql } from './each-sql.js'

onEachSql("a member's key is refused on the key routes with 403", async (t, connect) => {
  const server = await keyServer(t, await connect())
  const target = await server.create({ tenant: 'acme', role: 'viewer', name: 'target' })
  const routes = [
    ['POST', '/api/v1/api-keys', JSON.stringify({ tenant: 'acme', role: 'admin', name: 'escalate' })],
    ['GET', '/api/v1/api-keys', undefined],
    ['GET', `/api/v1/api-keys/${target.id}`, undefined],
    ['DELETE', `/api/v1/api-keys/${target.id}`, undefined],
  ] as const
  const call = (method: string, path: string, body: string | undefined, key: string) =>
    fetch(server.url + path, { method, headers: { 'content-type': 'application/json', ...bearer(key) }, ...(body && { body }) })

  for (const role of ['member', 'viewer', 'service']) {
    const { key } = await server.create({ tenant: 'acme', role, name: `a ${role}` })
    t.equal((await fetch(`${server.url}/whoami`, { headers: bearer(key) })).status, 200, `${role}: a valid key`)
    for (const [method, path, body] of routes) {
      const res = await call(method, path, body, key)
      t.equal(res.status, 403, `${role}: ${method} ${path}`)
      t.match((await res.json()).error, {
        code: 'FORBIDDEN',
        details: { field: 'authorization', constraint: 'needs the keys:admin permission' },
      })
    }
  }
  const record = await (await fetch(`${server.url}/api/v1/api-keys/${target.id}`, { headers: AS_ADMIN })).json()
  t.equal(record.revoked_at, null, 'the refused revocation changed nothing')
  t.equal(
    (await fetch(`${server.url}/api/v1/api-keys?tenant=acme`, { headers: AS_ADMIN }).then((r) => r.json())).pagination.total_items,
    4,
    'the refused creation made no key',
  )

  const admin = await server.create({ tenant: 'acme', role: 'admin', name: 'an admin' })
  const expected = [201, 200, 200, 200]
  for (const [i, [method, path, body]] of routes.entries()) {
    const res = await call(method, path, body, admin.key)
    t.equal(res.status, expected[i], `admin: ${method} ${path}`)
    await res.body?.cancel()
  }
})
