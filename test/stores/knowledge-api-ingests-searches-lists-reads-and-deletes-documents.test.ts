// The knowledge routes on a real server (port 0) over an in-memory PGlite store.
import t from 'tap'
import { createAuthenticator } from '../../src/auth/authenticator.js'
import { registerKnowledgeRoutes } from '../../src/orchestrator/knowledge-routes.js'
import { openSql } from '../../src/stores/open-sql.js'
import { SqlKnowledgeStore } from '../../src/stores/sql-knowledge-store.js'
import { JSON_HEADERS, startApp } from '../http/fixtures/start-app.js'

/** Authentication off: every request is the anonymous admin of the default tenant. */
const anonymous = createAuthenticator({ mode: 'off' })

const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(body) })

t.test('POST, search, GET list and one, DELETE', async (t) => {
  const sql = await openSql({ dataDir: 'memory://' })
  t.teardown(() => sql.close())
  const knowledge = await SqlKnowledgeStore.open(sql)
  const { url } = await startApp(t, (app) => registerKnowledgeRoutes(app, { knowledge }), {
    bodyLimitBytes: 1 << 20,
    authenticate: anonymous,
  })
  const base = `${url}/api/v1/knowledge`

  const long = Array.from({ length: 30 }, (_, i) => `Line ${i}: the heat exchanger needs descaling every spring.`).join(' ')
  const created = await post(base, {
    documents: [
      { title: 'Boiler manual', text: long, source: 'manuals/boiler.pdf', metadata: { lang: 'en' } },
      { text: 'The porcupine quill collection is kept in the archive.' },
    ],
  })
  t.equal(created.status, 201)
  const { documents } = (await created.json()) as { documents: Array<{ document_id: string; title: string | null; chunks: number }> }
  t.equal(documents.length, 2)
  t.match(documents[0], { title: 'Boiler manual', chunks: 2 })
  t.match(documents[1], { title: null, chunks: 1 })

  const search = await post(`${base}/search`, { query: 'porcupine quills', k: 1 })
  t.equal(search.status, 200)
  const found = (await search.json()) as { query: string; results: Array<Record<string, unknown>> }
  t.equal(found.query, 'porcupine quills')
  t.equal(found.results.length, 1)
  t.match(found.results[0], { document_id: documents[1]!.document_id, text: /porcupine/, fts_rank: 1, vector_rank: 1 })
  t.type(found.results[0]!.score, 'number')

  const list = (await (await fetch(`${base}?page_size=1&order=asc`)).json()) as Record<string, any>
  t.same(list.pagination, { page: 1, page_size: 1, total_pages: 2, total_items: 2 })
  t.equal(list.data.length, 1)
  t.notOk('text' in list.data[0], 'the list leaves the text out')

  const one = await fetch(`${base}/${documents[0]!.document_id}`)
  t.equal(one.status, 200)
  t.match(await one.json(), {
    document_id: documents[0]!.document_id,
    title: 'Boiler manual',
    source: 'manuals/boiler.pdf',
    metadata: { lang: 'en' },
    text: long,
    chunks: 2,
    chars: long.length,
  })

  const del = await fetch(`${base}/${documents[0]!.document_id}`, { method: 'DELETE' })
  t.equal(del.status, 200)
  t.same(await del.json(), { document_id: documents[0]!.document_id, deleted: true })
  t.equal((await fetch(`${base}/${documents[0]!.document_id}`)).status, 404)
  const again = await fetch(`${base}/${documents[0]!.document_id}`, { method: 'DELETE' })
  t.equal(again.status, 404)
  t.match(await again.json(), { error: { code: 'NOT_FOUND', details: { field: 'document_id' } } })
  t.equal(((await (await fetch(base)).json()) as Record<string, any>).pagination.total_items, 1)
})
