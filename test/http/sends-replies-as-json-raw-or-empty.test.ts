import t from 'tap'
import { startApp } from './fixtures/start-app.js'

t.test('sends body as JSON, raw as is, and 204 when there is neither', async (t) => {
  const { url } = await startApp(t, (app) => {
    app.route('POST', '/created', () => ({ status: 201, body: { key: 'k' }, headers: { location: '/k' } }), {
      permission: 'public',
      body: 'none',
    })
    app.route('GET', '/raw', () => ({ raw: '{"pre":"serialised"}' }), { permission: 'public' })
    app.route('DELETE', '/empty', () => ({}), { permission: 'public' })
    app.route('GET', '/metrics', () => ({ raw: 'up 1\n', headers: { 'content-type': 'text/plain; version=0.0.4' } }), {
      permission: 'public',
    })
  })

  const created = await fetch(`${url}/created`, { method: 'POST' })
  t.equal(created.status, 201)
  t.equal(created.headers.get('location'), '/k')
  t.equal(created.headers.get('content-type'), 'application/json; charset=utf-8')
  t.same(await created.json(), { key: 'k' })

  const raw = await fetch(`${url}/raw`)
  t.equal(raw.headers.get('content-type'), 'application/json; charset=utf-8')
  t.equal(await raw.text(), '{"pre":"serialised"}')

  const empty = await fetch(`${url}/empty`, { method: 'DELETE' })
  t.equal(empty.status, 204)
  t.ok(empty.headers.get('x-request-id'))

  const metrics = await fetch(`${url}/metrics`)
  t.equal(metrics.headers.get('content-type'), 'text/plain; version=0.0.4', 'reply headers win over the JSON default')
  t.equal(await metrics.text(), 'up 1\n')
})
