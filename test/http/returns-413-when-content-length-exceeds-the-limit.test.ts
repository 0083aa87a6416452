import t from 'tap'
import { errorOf, JSON_HEADERS, startApp } from './fixtures/start-app.js'

t.test('returns 413 when the Content-Length exceeds the body limit', async (t) => {
  let called = false
  const { url } = await startApp(
    t,
    (app) =>
      app.route(
        'POST',
        '/echo',
        (ctx) => {
          called = true
          return { body: ctx.body }
        },
        { permission: 'public' },
      ),
    {
      bodyLimitBytes: 100,
    },
  )

  const res = await fetch(`${url}/echo`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ text: 'x'.repeat(200) }) })
  t.equal(res.status, 413)
  t.ok(res.headers.get('x-request-id'))
  const error = await errorOf(res)
  t.equal(error.code, 'PAYLOAD_TOO_LARGE')
  t.equal(error.details.field, 'body')
  t.notOk(called, 'the handler never runs')

  const atLimit = JSON.stringify({ text: 'x'.repeat(100 - 11) })
  t.equal(Buffer.byteLength(atLimit), 100)
  t.equal((await fetch(`${url}/echo`, { method: 'POST', headers: JSON_HEADERS, body: atLimit })).status, 200, 'exactly the limit is fine')
})
