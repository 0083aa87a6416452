// The TaskStore contract on PGlite (in memory), the embedded default. Always runs.
import t from 'tap'
import { openSql } from '../../src/stores/open-sql.js'
import { SqlTaskStore } from '../../src/stores/sql-task-store.js'
import { taskStoreContract } from './task-store-contract.js'
import { taskStorePlanContract } from './task-store-plan-contract.js'

// One PGlite boot for the file (seconds on a busy machine); the contract and the PGlite-only check share it.
const sql = await openSql({ dataDir: 'memory://' })
t.teardown(() => sql.close())

await taskStoreContract(t, async () => ({ store: new SqlTaskStore(sql), sql, close: async () => {} }))
await taskStorePlanContract(t, new SqlTaskStore(sql))

t.test('serialises transactions on the single connection', async (t) => {
  await sql.exec('create table counter (n int); insert into counter values (0)')
  t.teardown(() => sql.exec('drop table counter'))
  // Read-then-write in each transaction: interleaving would lose increments.
  await Promise.all(
    Array.from({ length: 20 }, () =>
      sql.transaction(async (tx) => {
        const { rows } = await tx.query<{ n: number }>('select n from counter')
        await new Promise((r) => setImmediate(r))
        await tx.query('update counter set n = $1', [(rows[0]?.n ?? 0) + 1])
      }),
    ),
  )
  const { rows } = await sql.query<{ n: number }>('select n from counter')
  t.equal(rows[0]?.n, 20)
})
