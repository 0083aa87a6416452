import t from 'tap'
import { chunkedBody, JSON_HEADERS, startApp } from './fixtures/start-app.js'

t.test('reads a JSON body sent in several chunks without Content-Length', async (t) => {
  const { url } = await startApp(t, (app) => app.route('POST', '/echo', (ctx) => ({ body: ctx.body }), { permission: 'public' }))

  const body = chunkedBody(['{"text":', '"héllo ', 'wörld"}'])
  const res = await fetch(`${url}/echo`, { method: 'POST', headers: JSON_HEADERS, body, duplex: 'half' } as RequestInit)
  t.equal(res.status, 200)
  t.same(await res.json(), { text: 'héllo wörld' })
})

t.test('reads a large Content-Length body that arrives in many uWS chunks', async (t) => {
  const { url } = await startApp(
    t,
    (app) =>
      app.route('POST', '/echo', (ctx) => ({ body: { length: (ctx.body as { text: string }).text.length } }), { permission: 'public' }),
    {
      bodyLimitBytes: 4 << 20,
    },
  )
  const text = 'ü'.repeat(1_000_000)
  const res = await fetch(`${url}/echo`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ text }) })
  t.equal(res.status, 200)
  t.same(await res.json(), { length: text.length })
})
