// DELETE /api/v1/api-keys/{id} revokes the key and answers its record; again, the same record with
// the first revocation's time; an id no key has is a 404 naming `id`, and so is reading it.
import { AS_ADMIN, keyServer } from './api-key-server.js'
import { onEachSql } from './each-sql.js'

onEachSql('revoking a key twice answers its record and an unknown id 404', async (t, connect) => {
  const server = await keyServer(t, await connect())
  const { id } = await server.create({ tenant: 'acme', role: 'member', name: 'short-lived' })
  const revoke = (which: string) => fetch(`${server.url}/api/v1/api-keys/${which}`, { method: 'DELETE', headers: AS_ADMIN })

  const first = await revoke(id)
  t.equal(first.status, 200)
  const record = await first.json()
  t.match(record, { id, tenant: 'acme', role: 'member', name: 'short-lived', revoked_at: String })
  t.ok(Date.parse(record.revoked_at) >= Date.parse(record.created_at))

  const again = await revoke(id)
  t.equal(again.status, 200, 'idempotent')
  t.same(await again.json(), record, 'the same record, the first revocation time')

  const read = await fetch(`${server.url}/api/v1/api-keys/${id}`, { headers: AS_ADMIN })
  t.same(await read.json(), record, 'reading it shows it revoked')

  for (const unknown of ['0000000000000000', 'no-such-key']) {
    for (const res of [await revoke(unknown), await fetch(`${server.url}/api/v1/api-keys/${unknown}`, { headers: AS_ADMIN })]) {
      t.equal(res.status, 404, unknown)
      t.match((await res.json()).error, { code: 'NOT_FOUND', details: { field: 'id' } })
    }
  }
})
