import t from 'tap'
import { errorOf, startApp } from './fixtures/start-app.js'

t.test('echoes the X-Request-ID it was sent, on success and on errors', async (t) => {
  const { url } = await startApp(t, (app) =>
    app.route('GET', '/ok', (ctx) => ({ body: { seen: ctx.requestId } }), { permission: 'public' }),
  )

  const ok = await fetch(`${url}/ok`, { headers: { 'x-request-id': 'trace-123 abc' } })
  t.equal(ok.status, 200)
  t.equal(ok.headers.get('x-request-id'), 'trace-123 abc')
  t.same(await ok.json(), { seen: 'trace-123 abc' })

  const missing = await fetch(`${url}/nowhere`, { headers: { 'x-request-id': 'trace-404' } })
  t.equal(missing.headers.get('x-request-id'), 'trace-404')
  t.equal((await errorOf(missing)).request_id, 'trace-404')
})
