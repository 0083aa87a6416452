// With the database out of reach an API key can be judged neither way: the answer is a 503 the
// client retries, not a 401 telling it to throw a good key away, and not a 500.
import { bearer, keyServer } from './api-key-server.js'
import { onEachSql } from './each-sql.js'

onEachSql('a key that cannot be looked up answers 503 naming the database', async (t, connect) => {
  const sql = await connect()
  const server = await keyServer(t, sql)
  const { key } = await server.create({ tenant: 'acme', role: 'member', name: 'ci' })
  await sql.close()
  const res = await fetch(`${server.url}/whoami`, { headers: bearer(key) })
  t.equal(res.status, 503)
  t.match(await res.json(), {
    error: { code: 'SERVICE_UNAVAILABLE', details: { field: 'database', constraint: 'must be reachable' }, request_id: String },
  })
})
