import t from 'tap'
import { errorOf, startApp } from './fixtures/start-app.js'

t.test('returns 405 with an Allow header for another method on a known path', async (t) => {
  const { url } = await startApp(t, (app) => {
    app.route('GET', '/api/v1/cache/:key', () => ({ body: {} }), { permission: 'public' })
    app.route('DELETE', '/api/v1/cache/:key', () => ({ body: {} }), { permission: 'public' })
  })

  const res = await fetch(`${url}/api/v1/cache/abc`, { method: 'PUT', body: '{}', headers: { 'content-type': 'application/json' } })
  t.equal(res.status, 405)
  t.equal(res.headers.get('allow'), 'GET, DELETE')
  t.ok(res.headers.get('x-request-id'))
  const error = await errorOf(res)
  t.equal(error.code, 'METHOD_NOT_ALLOWED')
  t.equal(error.details.field, 'method')

  t.equal((await fetch(`${url}/api/v1/cache/abc`)).status, 200, 'the declared methods still reach their handlers')
  t.equal((await fetch(`${url}/api/v1/cache/abc`, { method: 'DELETE' })).status, 200)
})
