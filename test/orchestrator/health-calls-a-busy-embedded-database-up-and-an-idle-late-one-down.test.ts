// On PGlite every statement of the process waits its turn on one connection, so a health probe
// issued while a large write runs measures that write. The probe then reports the database up and
// busy; a probe that runs late with nothing else running still reports it down, and on a real
// PGlite a long statement of the process makes the adapter busy while it runs, until nothing has
// settled for its stall limit: a transaction held open forever reads down, not busy.
import t from 'tap'
import { CHECK_TIMEOUT_MS, checkDatabase } from '../../src/orchestrator/health-checks.js'
import { PgliteSql } from '../../src/stores/pglite-sql.js'
import type { Sql } from '../../src/stores/sql.js'

/** An adapter whose statements never settle, busy or not. */
function stuck(busy: boolean | undefined): Sql {
  return {
    dialect: 'pglite',
    schema: 'public',
    jobBackend: { kind: 'postgres', connectionString: 'unused' },
    query: () => new Promise(() => {}),
    exec: () => new Promise(() => {}),
    transaction: () => new Promise(() => {}),
    close: () => Promise.resolve(),
    ...(busy !== undefined && { busy: () => busy }),
  } as unknown as Sql
}

t.test('a late probe behind the process’s own statements is up and busy', async (t) => {
  t.same(await checkDatabase(stuck(true)), { status: 'up', latency_ms: CHECK_TIMEOUT_MS, busy: true })
})

t.test('a late probe with nothing else running is down', async (t) => {
  for (const busy of [false, undefined]) {
    t.same(
      await checkDatabase(stuck(busy)),
      { status: 'down', latency_ms: CHECK_TIMEOUT_MS, error: `timed out after ${CHECK_TIMEOUT_MS} ms` },
      `busy ${String(busy)}`,
    )
  }
})

t.test('PGlite is busy while a statement of the process runs, and idle after', async (t) => {
  const sql = await PgliteSql.open()
  t.teardown(() => sql.close())
  t.equal(sql.busy(), false)
  const running = sql.query('select pg_sleep(0.2)')
  t.equal(sql.busy(), true, 'busy while the statement runs')
  const probe = await checkDatabase(sql)
  t.match(probe, { status: 'up' }, 'the probe waits its turn and finds the database up')
  await running
  t.equal(sql.busy(), false, 'idle once it has settled')
  t.match(await checkDatabase(sql), { status: 'up', latency_ms: Number }, 'an idle probe answers at once')
})

t.test('PGlite held by a transaction that never ends is stuck, not busy, after its stall limit', async (t) => {
  const stallMs = 300
  const sql = await PgliteSql.open({ stallMs })
  let release = (): void => {}
  const held = sql.transaction(async (tx) => {
    await tx.query('select 1')
    await new Promise<void>((resolve) => {
      release = resolve
    })
  })
  t.teardown(async () => {
    release()
    await held
    await sql.close()
  })
  t.equal(sql.busy(), true, 'busy while the transaction has just begun')
  await new Promise((resolve) => setTimeout(resolve, stallMs + 100))
  t.equal(sql.busy(), false, 'nothing settled within the stall limit')
  t.same(
    await checkDatabase(sql),
    { status: 'down', latency_ms: CHECK_TIMEOUT_MS, error: `timed out after ${CHECK_TIMEOUT_MS} ms` },
    'the probe behind it reads the database down',
  )
  release()
  await held
  // The late probe's own statement ran after the transaction; one issued now settles after it.
  await sql.query('select 1')
  t.equal(sql.busy(), false, 'idle once the transaction and the probe behind it have settled')
  t.match(await checkDatabase(sql), { status: 'up' }, 'and up again')
})
