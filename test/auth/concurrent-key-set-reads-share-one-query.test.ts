import { CapabilityIssuer } from '../../src/auth/capability-issuer.js'
import type { Sql } from '../../src/stores/sql.js'
import { onEachSql } from './each-sql.js'

/** `sql` with its key-set reads counted. */
function counting(sql: Sql): { sql: Sql; reads: () => number } {
  let reads = 0
  const counted = Object.create(sql) as Sql
  counted.query = ((text: string, params?: unknown[]) => {
    if (text.includes('from capability_keys')) reads++
    return sql.query(text, params as never)
  }) as Sql['query']
  return { sql: counted, reads: () => reads }
}

onEachSql('concurrent key-set reads share one query', async (t, connect) => {
  const { sql, reads } = counting(await connect())
  const a = await CapabilityIssuer.open({ sql })
  const b = await CapabilityIssuer.open({ sql: await connect() })
  t.teardown(() => Promise.all([a.close(), b.close()]))

  const before = reads()
  const sets = await Promise.all(Array.from({ length: 25 }, () => a.jwks()))
  t.equal(reads() - before, 1, 'one query for 25 concurrent requests')
  for (const set of sets) t.same(set.keys.map((k) => k.kid).sort(), [a.kid, b.kid].sort())

  await a.jwks()
  t.equal(reads() - before, 2, 'a later request reads again: nothing is cached past the query')
})
