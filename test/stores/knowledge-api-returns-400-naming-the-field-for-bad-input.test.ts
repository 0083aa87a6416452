// Bad requests to the knowledge routes: each a 400 VALIDATION_ERROR naming the field, nothing stored.
import t from 'tap'
import { createAuthenticator } from '../../src/auth/authenticator.js'
import { registerKnowledgeRoutes } from '../../src/orchestrator/knowledge-routes.js'
import { openSql } from '../../src/stores/open-sql.js'
import { SqlKnowledgeStore } from '../../src/stores/sql-knowledge-store.js'
import { ANY_TENANT } from '../../src/stores/tenant.js'
import { errorOf, JSON_HEADERS, startApp } from '../http/fixtures/start-app.js'

/** Authentication off: every request is the anonymous admin of the default tenant. */
const anonymous = createAuthenticator({ mode: 'off' })

const sql = await openSql({ dataDir: 'memory://' })
t.teardown(() => sql.close())
const knowledge = await SqlKnowledgeStore.open(sql)

const cases: Array<[string, string, unknown, string]> = [
  ['no documents', '', {}, 'documents'],
  ['an empty list', '', { documents: [] }, 'documents'],
  ['101 documents', '', { documents: Array.from({ length: 101 }, () => ({ text: 'x' })) }, 'documents'],
  ['an unknown top-level field', '', { documents: [{ text: 'x' }], tags: [] }, 'tags'],
  ['an unknown document field', '', { documents: [{ text: 'x', author: 'me' }] }, 'documents[0].author'],
  ['text missing', '', { documents: [{ title: 'x' }] }, 'documents[0].text'],
  ['empty text', '', { documents: [{ text: '' }] }, 'documents[0].text'],
  ['text of white space only', '', { documents: [{ text: 'ok' }, { text: ' \n\t ' }] }, 'documents[1].text'],
  ['text with a NUL', '', { documents: [{ text: 'a\u0000b' }] }, 'documents[0].text'],
  ['text of the wrong type', '', { documents: [{ text: 42 }] }, 'documents[0].text'],
  ['metadata not an object', '', { documents: [{ text: 'x', metadata: 'm' }] }, 'documents[0].metadata'],
  ['a search without a query', '/search', { k: 3 }, 'query'],
  ['an empty query', '/search', { query: '' }, 'query'],
  ['a query too long', '/search', { query: 'q'.repeat(2001) }, 'query'],
  ['k above 50', '/search', { query: 'x', k: 51 }, 'k'],
  ['k not an integer', '/search', { query: 'x', k: 'five' }, 'k'],
  ['an unknown search field', '/search', { query: 'x', filter: {} }, 'filter'],
]

t.test('bad bodies', async (t) => {
  const { url } = await startApp(t, (app) => registerKnowledgeRoutes(app, { knowledge }), {
    bodyLimitBytes: 1 << 20,
    authenticate: anonymous,
  })
  for (const [name, path, body, field] of cases) {
    const res = await fetch(`${url}/api/v1/knowledge${path}`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(body) })
    t.equal(res.status, 400, name)
    t.match(await errorOf(res), { code: 'VALIDATION_ERROR', details: { field } }, name)
  }
  t.equal((await knowledge.list(ANY_TENANT, { limit: 1, offset: 0 })).total, 0, 'nothing was stored')
})

t.test('bad list parameters and unknown documents', async (t) => {
  const { url } = await startApp(t, (app) => registerKnowledgeRoutes(app, { knowledge }), {
    bodyLimitBytes: 1 << 20,
    authenticate: anonymous,
  })
  for (const [query, field] of [
    ['page=0', 'page'],
    ['page_size=101', 'page_size'],
    ['sort_by=title', 'sort_by'],
    ['order=up', 'order'],
  ]) {
    const res = await fetch(`${url}/api/v1/knowledge?${query}`)
    t.equal(res.status, 400, query!)
    t.match(await errorOf(res), { code: 'VALIDATION_ERROR', details: { field } })
  }
  const missing = await fetch(`${url}/api/v1/knowledge/nope`)
  t.equal(missing.status, 404)
  t.match(await errorOf(missing), { code: 'NOT_FOUND', details: { field: 'document_id' } })
})
