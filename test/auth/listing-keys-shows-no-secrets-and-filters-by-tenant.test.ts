// GET /api/v1/api-keys pages through the records in the usual envelope, revoked keys included,
// and with `tenant` lists that tenant's only; a record never carries a key, a secret or a hash.
import { AS_ADMIN, keyServer } from './api-key-server.js'
import { onEachSql } from './each-sql.js'

const RECORD_FIELDS = ['created_at', 'id', 'last_used_at', 'name', 'rate_limit', 'read_rate_limit', 'revoked_at', 'role', 'tenant']

onEachSql('listing keys shows no secrets and filters by tenant', async (t, connect) => {
  const server = await keyServer(t, await connect())
  const a1 = await server.create({ tenant: 'acme', role: 'member', name: 'first' })
  const a2 = await server.create({ tenant: 'acme', role: 'viewer', name: 'second' })
  const b1 = await server.create({ tenant: 'globex', role: 'service', name: 'third' })
  await fetch(`${server.url}/api/v1/api-keys/${a1.id}`, { method: 'DELETE', headers: AS_ADMIN })

  const list = async (query: string) => {
    const res = await fetch(`${server.url}/api/v1/api-keys${query}`, { headers: AS_ADMIN })
    return { status: res.status, text: await res.text() }
  }

  const all = await list('?sort_by=name&order=asc')
  t.equal(all.status, 200)
  const page = JSON.parse(all.text)
  t.same(
    page.data.map((k: { id: string }) => k.id),
    [a1.id, a2.id, b1.id],
  )
  t.same(page.pagination, { page: 1, page_size: 20, total_pages: 1, total_items: 3 })
  for (const record of page.data) t.same(Object.keys(record).sort(), RECORD_FIELDS, `${record.id}: the record's fields only`)
  t.match(page.data[0], { tenant: 'acme', role: 'member', name: 'first', revoked_at: String, last_used_at: null })
  t.match(page.data[1], { revoked_at: null })
  for (const key of [a1, a2, b1]) t.notOk(all.text.includes(key.key.slice(20)), 'no secret')

  const acme = JSON.parse((await list('?tenant=acme&page_size=1&sort_by=created_at&order=desc')).text)
  t.same(
    acme.data.map((k: { id: string }) => k.id),
    [a2.id],
    "the newest of acme's",
  )
  t.same(acme.pagination, { page: 1, page_size: 1, total_pages: 2, total_items: 2 })
  const second = JSON.parse((await list('?tenant=acme&page_size=1&page=2&sort_by=created_at&order=desc')).text)
  t.same(
    second.data.map((k: { id: string }) => k.id),
    [a1.id],
  )
  t.equal(JSON.parse((await list('?tenant=initech')).text).pagination.total_items, 0, 'a tenant without keys')

  for (const [query, field] of [
    ['?tenant=a%20b', 'tenant'],
    ['?tenant=acme&tenant=globex', 'tenant'],
    ['?sort_by=secret_hash', 'sort_by'],
    ['?page_size=101', 'page_size'],
  ] as const) {
    const bad = await list(query)
    t.equal(bad.status, 400, query)
    t.match(JSON.parse(bad.text).error, { code: 'VALIDATION_ERROR', details: { field } }, query)
  }
})
