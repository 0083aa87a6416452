// Several processes starting at once on one PostgreSQL: the advisory lock lets one apply, the rest wait.
import t from 'tap'
import { loadMigrations, migrate } from '../../src/stores/migrate.js'
import { openSql } from '../../src/stores/open-sql.js'
import { DATABASE_URL, dropSchema, freshSchemaName, SKIP_PG } from './pg-schema.js'

t.test('applies each migration once when four opens race on a fresh schema', { skip: SKIP_PG }, async (t) => {
  const schema = freshSchemaName('migrate')
  t.teardown(() => dropSchema(schema))
  const opened = await Promise.all(
    Array.from({ length: 4 }, () => openSql({ databaseUrl: DATABASE_URL, dataDir: 'unused', schema, poolSize: 2 })),
  )
  t.teardown(() => Promise.all(opened.map((s) => s.close())))
  const first = opened[0]!
  const { rows } = await first.query<{ name: string }>('select name from schema_migrations order by name')
  t.same(
    rows.map((r) => r.name),
    (await loadMigrations()).map((m) => m.name),
    'every file in migrations/, in order',
  )
  t.same(await migrate(first), [], 'a later run has nothing to do')
  const tables = await first.query<{ table_name: string }>(
    'select table_name from information_schema.tables where table_schema = $1 order by table_name',
    [schema],
  )
  const names = tables.rows.map((r) => r.table_name)
  for (const table of ['idempotency_keys', 'schema_migrations', 'task_events', 'task_steps', 'tasks'])
    t.ok(names.includes(table), `${table} exists`)
  const vector = await first.query<{ available: boolean; created: boolean }>(
    `select exists (select 1 from pg_available_extensions where name = 'vector') as available,
            exists (select 1 from pg_extension where extname = 'vector') as created`,
  )
  const { available, created } = vector.rows[0]!
  t.equal(created, available, `pgvector ${available ? 'created' : 'absent from this server, and the migration still passed'}`)
})

t.test('rolls a failing migration back whole', { skip: SKIP_PG }, async (t) => {
  const schema = freshSchemaName('migrate')
  t.teardown(() => dropSchema(schema))
  const sql = await openSql({ databaseUrl: DATABASE_URL, dataDir: 'unused', schema, poolSize: 1, migrate: false })
  t.teardown(() => sql.close())
  await t.rejects(
    migrate(sql, [
      { name: '0001_ok', sql: 'create table a (x int)' },
      { name: '0002_bad', sql: 'create table b (x nosuchtype)' },
    ]),
  )
  const { rows } = await sql.query(`select 1 from information_schema.tables where table_schema = $1`, [schema])
  t.equal(rows.length, 0, 'neither table nor schema_migrations survived')
})
