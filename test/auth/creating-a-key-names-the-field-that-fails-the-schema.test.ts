// POST /api/v1/api-keys validates its body against the declared schema: a 400 whose error names
// the field and the rule, and no key is made.
import { AS_ADMIN, keyServer } from './api-key-server.js'
import { onEachSql } from './each-sql.js'

const GOOD = { tenant: 'acme', role: 'member', name: 'ci' }

onEachSql('creating a key names the field that fails the schema', async (t, connect) => {
  const server = await keyServer(t, await connect())
  const cases: Array<[string, unknown, string, RegExp]> = [
    ['no tenant', { role: 'member', name: 'ci' }, 'tenant', /required/],
    ['an empty tenant', { ...GOOD, tenant: '' }, 'tenant', /fewer than 1/],
    ['a tenant with a space', { ...GOOD, tenant: 'ac me' }, 'tenant', /pattern/],
    ['a tenant with a slash', { ...GOOD, tenant: '../acme' }, 'tenant', /pattern/],
    ['a tenant of 129 characters', { ...GOOD, tenant: 'a'.repeat(129) }, 'tenant', /more than 128/],
    ['an unknown role', { ...GOOD, role: 'owner' }, 'role', /must be one of "admin", "member", "viewer", "service"/],
    ['a role that is no string', { ...GOOD, role: 1 }, 'role', /must be one of/],
    ['an empty name', { ...GOOD, name: '' }, 'name', /fewer than 1/],
    ['a name of 201 characters', { ...GOOD, name: 'n'.repeat(201) }, 'name', /more than 200/],
    ['a name with a newline', { ...GOOD, name: 'ci\nrunner' }, 'name', /pattern/],
    ['an unknown field', { ...GOOD, secret: 'mine' }, 'secret', /unknown field/],
    ['a body that is no object', ['acme'], 'body', /object/],
  ]
  for (const [what, body, field, constraint] of cases) {
    const res = await fetch(`${server.url}/api/v1/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...AS_ADMIN },
      body: JSON.stringify(body),
    })
    t.equal(res.status, 400, what)
    t.match((await res.json()).error, { code: 'VALIDATION_ERROR', details: { field, constraint } }, what)
  }
  const list = await (await fetch(`${server.url}/api/v1/api-keys`, { headers: AS_ADMIN })).json()
  t.equal(list.pagination.total_items, 0, 'no key was made')
  t.equal(
    (
      await fetch(`${server.url}/api/v1/api-keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...AS_ADMIN },
        body: JSON.stringify({ ...GOOD, tenant: 'a'.repeat(128), name: 'Déploiement · CI ✓' }),
      })
    ).status,
    201,
    'the limits themselves pass',
  )
})
