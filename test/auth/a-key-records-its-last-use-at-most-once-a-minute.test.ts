// A verified key's last_used_at is written in the background, at most once a minute per key and
// process, not on every request; and a second process that verifies the same key within that
// minute finds the row recent and leaves it unwritten.
import { apiKeyVerifier, createApiKey } from '../../src/auth/api-keys.js'
import { SqlApiKeyStore } from '../../src/stores/sql-api-key-store.js'
import { onEachSql } from './each-sql.js'

onEachSql('a key records its last use at most once a minute', async (t, connect) => {
  const sql = await connect()
  const store = new SqlApiKeyStore(sql)
  let touches = 0
  const counted = {
    get: (id: string) => store.get(id),
    touch: (id: string, at: Date, minIntervalMs: number) => {
      touches++
      return store.touch(id, at, minIntervalMs)
    },
  }
  // The database's clock stamps created_at: start there, so "a minute later" is one for both.
  let clock = Date.now()
  const verifier = apiKeyVerifier(counted, { now: () => clock })
  const { record, key } = await createApiKey(store, { tenant: 'acme', role: 'service', name: 'busy' })
  t.equal(record.last_used_at, null, 'never used yet')
  // verify() does not wait for its write: poll the row until it shows `at` (or give up and show it).
  const lastUsedBecomes = async (at: string) => {
    for (let i = 0; i < 50; i++) {
      const now = (await store.get(record.id))?.last_used_at
      if (now === at) return now
      await new Promise((r) => setTimeout(r, 20))
    }
    return (await store.get(record.id))?.last_used_at
  }

  for (let i = 0; i < 20; i++) t.ok(await verifier.verify(key), `use ${i + 1}`)
  t.equal(touches, 1, 'twenty uses, one write')
  const first = new Date(clock).toISOString()
  t.equal(await lastUsedBecomes(first), first, 'last_used_at is the first use')

  clock += 30_000
  for (let i = 0; i < 5; i++) await verifier.verify(key)
  t.equal(touches, 1, 'half a minute later: no write')

  clock += 31_000
  const second = new Date(clock).toISOString()
  await verifier.verify(key)
  t.equal(touches, 2, 'a minute after the first write: the second')
  t.equal(await lastUsedBecomes(second), second)

  // another process, its own memory: it asks, and the row, written a moment ago, is left alone
  const other = apiKeyVerifier(await connect().then((s) => new SqlApiKeyStore(s)), { now: () => clock + 5_000 })
  t.ok(await other.verify(key))
  await new Promise((r) => setTimeout(r, 200))
  t.equal((await store.get(record.id))?.last_used_at, second, 'a write within the minute by another process changes nothing')
})
