import t from 'tap'
import { startApp } from './fixtures/start-app.js'

t.test('answers OPTIONS on a known path with 204 and the methods it allows', async (t) => {
  const { url } = await startApp(t, (app) => {
    app.route('GET', '/api/v1/cache/:key', () => ({ body: {} }), { permission: 'public' })
    app.route('DELETE', '/api/v1/cache/:key', () => ({ body: {} }), { permission: 'public' })
  })
  const res = await fetch(`${url}/api/v1/cache/abc`, { method: 'OPTIONS', headers: { 'x-request-id': 'opt-1' } })
  t.equal(res.status, 204)
  t.equal(res.headers.get('allow'), 'GET, DELETE, OPTIONS')
  t.equal(res.headers.get('x-request-id'), 'opt-1')
  t.equal(await res.text(), '')
  t.equal((await fetch(`${url}/nowhere`, { method: 'OPTIONS' })).status, 404, 'an unknown path is still a 404')
})
