// Migration 0009 on a database that already holds data: every task, idempotency key, knowledge
// document and chunk and episode of before is the default tenant's afterwards, and the stores find
// them there (and only there), on PGlite and on PostgreSQL (DATABASE_URL).
import t, { type Test } from 'tap'
import { loadMigrations, migrate } from '../../src/stores/migrate.js'
import { openSql } from '../../src/stores/open-sql.js'
import type { Sql } from '../../src/stores/sql.js'
import { SqlKnowledgeStore } from '../../src/stores/sql-knowledge-store.js'
import { SqlTaskStore } from '../../src/stores/sql-task-store.js'
import { DATABASE_URL, dropSchema, freshSchemaName, SKIP_PG } from './pg-schema.js'

async function behaviour(t: Test, sql: Sql): Promise<void> {
  const all = await loadMigrations()
  await migrate(
    sql,
    all.filter((m) => m.name < '0009'),
  )
  await sql.exec(`
    insert into tasks (task_id, status, goal, event_seq) values ('old-task', 'queued', 'from before tenants', 1);
    insert into task_events (task_id, seq, type) values ('old-task', 1, 'task.created');
    insert into idempotency_keys (key, request_hash, task_id) values ('user:key-1', 'h', 'old-task');
    insert into knowledge_documents (document_id, title, text, chunk_count) values ('old-doc', 'Old', 'Aardvarks eat ants.', 1);
    insert into knowledge_chunks (chunk_id, document_id, position, start_offset, text, embedder, embedding)
      values ('old-doc:0', 'old-doc', 0, 0, 'Aardvarks eat ants.', 'none', '{}');
    insert into episodes (task_id, goal, outcome, completed_at, embedder, embedding)
      values ('old-task', 'from before tenants', 'done', now(), 'none', '{}');
  `)
  t.same(
    await migrate(sql),
    all.filter((m) => m.name >= '0009').map((m) => m.name),
    'the tenancy migration runs on the filled database',
  )
  for (const table of ['tasks', 'idempotency_keys', 'knowledge_documents', 'knowledge_chunks', 'episodes']) {
    const { rows } = await sql.query<{ tenant: string }>(`select distinct tenant from ${table}`)
    t.same(
      rows.map((r) => r.tenant),
      ['default'],
      `${table}: in the default tenant`,
    )
  }

  const tasks = new SqlTaskStore(sql)
  t.equal((await tasks.get('default', 'old-task'))?.goal, 'from before tenants')
  t.equal(await tasks.get('acme', 'old-task'), null, 'and in no other')
  t.same(
    (await tasks.eventsAfter('default', 'old-task', 0, 10)).map((e) => e.type),
    ['task.created'],
  )
  const replay = await tasks.create(
    { task_id: 'new-task', tenant: 'default', goal: 'again' },
    { idempotencyKey: 'user:key-1', requestHash: 'h' },
  )
  t.same([replay.replayed, replay.task.task_id], [true, 'old-task'], "the old key is the default tenant's")
  const elsewhere = await tasks.create(
    { task_id: 'acme-task', tenant: 'acme', goal: 'again' },
    { idempotencyKey: 'user:key-1', requestHash: 'h' },
  )
  t.equal(elsewhere.replayed, false, 'and free in another tenant')

  const knowledge = await SqlKnowledgeStore.open(sql)
  t.equal((await knowledge.get('default', 'old-doc'))?.title, 'Old')
  t.equal(await knowledge.get('acme', 'old-doc'), undefined)
  t.same(
    (await knowledge.search('default', 'aardvarks', { k: 3 })).map((h) => h.chunk_id),
    ['old-doc:0'],
  )
  t.same(await knowledge.search('acme', 'aardvarks', { k: 3 }), [])
}

t.test('rows from before tenants move into the default tenant (PGlite)', async (t) => {
  const sql = await openSql({ dataDir: 'memory://', migrate: false })
  t.teardown(() => sql.close())
  await behaviour(t, sql)
})

t.test('rows from before tenants move into the default tenant (PostgreSQL)', { skip: SKIP_PG }, async (t) => {
  const schema = freshSchemaName('tenants')
  t.teardown(() => dropSchema(schema))
  const sql = await openSql({ databaseUrl: DATABASE_URL, dataDir: 'unused', schema, poolSize: 2, migrate: false })
  t.teardown(() => sql.close())
  await behaviour(t, sql)
})
