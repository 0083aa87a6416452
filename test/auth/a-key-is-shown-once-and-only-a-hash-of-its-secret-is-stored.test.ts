// POST /api/v1/api-keys answers the key once; no other reply (the list, the record, the
// revocation) carries it or its secret, and the database row holds only SHA-256 of the secret.
import { createHash } from 'node:crypto'
import { AS_ADMIN, keyServer } from './api-key-server.js'
import { onEachSql } from './each-sql.js'

onEachSql('a key is shown once and only a hash of its secret is stored', async (t, connect) => {
  const sql = await connect()
  const server = await keyServer(t, sql)
  const res = await fetch(`${server.url}/api/v1/api-keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...AS_ADMIN },
    body: JSON.stringify({ tenant: 'acme', role: 'member', name: 'ci runner' }),
  })
  t.equal(res.status, 201)
  t.equal(res.headers.get('cache-control'), 'no-store')
  const created = (await res.json()) as Record<string, string>
  t.same(Object.keys(created).sort(), ['created_at', 'id', 'key', 'name', 'rate_limit', 'read_rate_limit', 'role', 'tenant'])
  t.match(created, { tenant: 'acme', role: 'member', name: 'ci runner' })
  t.match(created.key, /^gk_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/, 'gk_<id>_<secret>')
  t.equal(created.key!.slice(3, 19), created.id, 'the id is the public part')
  t.equal(res.headers.get('location'), `/api/v1/api-keys/${created.id}`)
  const secret = created.key!.slice(20)

  const replies = [
    await fetch(`${server.url}/api/v1/api-keys`, { headers: AS_ADMIN }),
    await fetch(`${server.url}${res.headers.get('location')}`, { headers: AS_ADMIN }),
    await fetch(`${server.url}/api/v1/api-keys/${created.id}`, { method: 'DELETE', headers: AS_ADMIN }),
  ]
  for (const reply of replies) {
    t.equal(reply.status, 200, reply.url)
    const text = await reply.text()
    t.ok(text.includes(created.id!), `${reply.url} names the key`)
    t.notOk(text.includes(secret), `${reply.url} holds no secret`)
    t.notOk(/secret|hash|"key"/.test(text), `${reply.url} has no secret or hash field`)
  }

  const { rows } = await sql.query<Record<string, unknown>>('select * from api_keys where id = $1', [created.id])
  t.equal(rows.length, 1)
  const row = rows[0]!
  const stored = Buffer.from(row.secret_hash as Uint8Array)
  t.same(stored, createHash('sha256').update(secret).digest(), 'SHA-256 of the secret')
  // Every column as text; bytes in the secret's own encoding and as UTF-8.
  const everything = Object.values(row)
    .map((v) => (v instanceof Uint8Array ? `${Buffer.from(v).toString('base64url')} ${Buffer.from(v).toString('utf8')}` : String(v)))
    .join(' ')
  t.notOk(everything.includes(secret), 'no column holds the secret')
  t.notOk(everything.includes(created.key!), 'no column holds the key')
  t.notOk(stored.includes(Buffer.from(secret)), 'nor its bytes')
})
