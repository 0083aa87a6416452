import t from 'tap'
import { errorOf, startApp } from './fixtures/start-app.js'

t.test('returns a 404 error object naming the path for an unknown path', async (t) => {
  const { url } = await startApp(t, (app) => app.route('GET', '/api/v1/health', () => ({ body: { ok: true } }), { permission: 'public' }))

  const res = await fetch(`${url}/api/v1/nope`, { method: 'POST', body: '{}' })
  t.equal(res.status, 404)
  t.equal(res.headers.get('content-type'), 'application/json; charset=utf-8')
  const error = await errorOf(res)
  t.equal(error.code, 'NOT_FOUND')
  t.equal(error.details.field, 'path')
  t.type(error.details.constraint, 'string')
  t.equal(error.request_id, res.headers.get('x-request-id'))
})
