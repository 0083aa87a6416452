// openSql without DATABASE_URL: PGlite on disk under DATA_DIR, pgvector loaded, state kept across restarts.
// (Two PGlite boots on disk: slow on a busy machine, so this file holds only this one test.)
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { loadMigrations } from '../../src/stores/migrate.js'
import { openSql } from '../../src/stores/open-sql.js'
import { SqlTaskStore } from '../../src/stores/sql-task-store.js'

t.test('keeps tasks under DATA_DIR across a restart and migrates only once', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'ganglion-pglite-'))
  t.teardown(() => rm(root, { recursive: true, force: true }))
  const dataDir = join(root, 'not', 'yet', 'there') // a fresh DATA_DIR need not exist

  const first = await openSql({ dataDir })
  t.equal(first.dialect, 'pglite')
  const { task } = await new SqlTaskStore(first).create({ task_id: 'persisted-1', tenant: 'default', goal: 'survive a restart' })
  const vector = await first.query("select 1 from pg_extension where extname = 'vector'")
  t.equal(vector.rowCount, 1, 'pgvector is loaded and created on PGlite')
  await first.close()
  t.ok((await readdir(dataDir)).includes('pglite'), 'files live in <DATA_DIR>/pglite')

  const second = await openSql({ dataDir })
  t.teardown(() => second.close())
  t.same(await new SqlTaskStore(second).get('default', 'persisted-1'), task)
  const { rows } = await second.query<{ n: number }>('select count(*)::int as n from schema_migrations')
  t.equal(rows[0]?.n, (await loadMigrations()).length, 'the second start applied nothing new')
})
