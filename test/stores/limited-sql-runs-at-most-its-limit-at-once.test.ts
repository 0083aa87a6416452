// limitSql: at most `limit` statements or transactions of its callers at once, the others wait in
// order; a transaction holds one permit and the statements inside it run on that permit.
import t from 'tap'
import { limitSql, onUse } from '../../src/stores/limited-sql.js'
import type { Sql, SqlResult } from '../../src/stores/sql.js'

function fakeSql(): { sql: Sql; peak: () => number; order: string[]; atStart: Map<string, number> } {
  let now = 0
  let peak = 0
  const order: string[] = []
  /** How many statements were running (this one included) as each began. */
  const atStart = new Map<string, number>()
  const tick = () => new Promise((r) => setTimeout(r, 5))
  const query = async <T>(text: string): Promise<SqlResult<T>> => {
    now++
    peak = Math.max(peak, now)
    order.push(text)
    atStart.set(text, now)
    await tick()
    now--
    return { rows: [], rowCount: 0 }
  }
  const sql: Sql = {
    dialect: 'postgres',
    schema: 'public',
    jobBackend: { kind: 'postgres', connectionString: 'postgres://unused' },
    query,
    exec: async () => {},
    // A transaction counts as one connection for as long as it runs; its statements do not add any.
    transaction: async (fn) => {
      now++
      peak = Math.max(peak, now)
      const inner: Sql = {
        ...sql,
        query: async <T>(text: string) => {
          order.push(text)
          await tick()
          return { rows: [] as T[], rowCount: 0 }
        },
      }
      try {
        return await fn(inner)
      } finally {
        now--
      }
    },
    close: async () => {},
  }
  return { sql, peak: () => peak, order, atStart }
}

t.test('runs at most its limit at once, in the order asked', async (t) => {
  const fake = fakeSql()
  const limited = limitSql(fake.sql, 2)
  await Promise.all(Array.from({ length: 8 }, (_, i) => limited.query(`q${i}`)))
  t.equal(fake.peak(), 2)
  t.same(fake.order, ['q0', 'q1', 'q2', 'q3', 'q4', 'q5', 'q6', 'q7'])
})

t.test('a transaction holds one permit; its statements do not wait for another', async (t) => {
  const fake = fakeSql()
  const limited = limitSql(fake.sql, 1)
  const done = await Promise.all([
    limited.transaction(async (tx) => {
      await tx.query('a1')
      await tx.query('a2')
      return 'a'
    }),
    limited.query('b'),
    limited.transaction(async (tx) => {
      await tx.query('c1')
      return 'c'
    }),
  ])
  t.same(
    done.map((d) => (typeof d === 'string' ? d : 'b')),
    ['a', 'b', 'c'],
  )
  t.equal(fake.peak(), 1)
  t.same(fake.order, ['a1', 'a2', 'b', 'c1'], 'one after another, none nested in a wait')
})

t.test('a failing statement gives its permit back', async (t) => {
  const fake = fakeSql()
  const failing: Sql = {
    ...fake.sql,
    query: async () => {
      throw new Error('boom')
    },
  }
  const limited = limitSql(failing, 1)
  await t.rejects(limited.query('x'), /boom/)
  await t.rejects(limited.query('y'), /boom/, 'not stuck waiting')
})

t.test('a limit given as a function is read as it changes: shrinking holds new work back, growing lets waiters in', async (t) => {
  const fake = fakeSql()
  let limit = 1
  const limited = limitSql(fake.sql, () => limit)
  const first = Promise.all(Array.from({ length: 4 }, (_, i) => limited.query(`a${i}`)))
  await new Promise((r) => setTimeout(r, 1))
  limit = 4 // the waiters get in at the next release, in order
  await first
  t.same(fake.order, ['a0', 'a1', 'a2', 'a3'])
  t.ok(fake.peak() > 1 && fake.peak() <= 4, `ran up to ${fake.peak()} at once once the limit grew`)

  const shrunk = fakeSql()
  const three = limitSql(shrunk.sql, () => limit)
  limit = 3
  const wave = Array.from({ length: 3 }, (_, i) => three.query(`b${i}`))
  limit = 1 // three are running; new work waits until all three are done, then goes one at a time
  const later = Array.from({ length: 3 }, (_, i) => three.query(`c${i}`))
  await Promise.all([...wave, ...later])
  t.equal(shrunk.peak(), 3, 'the first three ran together')
  t.same(
    ['c0', 'c1', 'c2'].map((q) => shrunk.atStart.get(q)),
    [1, 1, 1],
    'after the shrink, one at a time',
  )
  t.same(shrunk.order, ['b0', 'b1', 'b2', 'c0', 'c1', 'c2'])
})

t.test('onUse reports each statement, script and transaction as it starts', async (t) => {
  const fake = fakeSql()
  const seen: string[] = []
  const used = onUse(fake.sql, () => seen.push(fake.order.at(-1) ?? 'start'))
  await used.query('q1')
  await used.exec('script')
  await used.transaction(async (tx) => {
    await tx.query('in-tx')
  })
  t.same(seen, ['start', 'q1', 'q1'], 'before each ran (the transaction reported once, not per statement)')
})
