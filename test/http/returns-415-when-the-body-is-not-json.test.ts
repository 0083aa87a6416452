import t from 'tap'
import { errorOf, startApp } from './fixtures/start-app.js'

t.test('returns 415 naming content-type when a body is sent as something other than JSON', async (t) => {
  const { url } = await startApp(t, (app) => app.route('POST', '/echo', (ctx) => ({ body: ctx.body }), { permission: 'public' }))

  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonx']) {
    const res = await fetch(`${url}/echo`, { method: 'POST', headers: { 'content-type': type }, body: '{"a":1}' })
    t.equal(res.status, 415, type)
    const error = await errorOf(res)
    t.equal(error.code, 'UNSUPPORTED_MEDIA_TYPE')
    t.equal(error.details.field, 'content-type')
  }

  const withCharset = await fetch(`${url}/echo`, {
    method: 'POST',
    headers: { 'content-type': 'Application/JSON; charset=utf-8' },
    body: '{"a":1}',
  })
  t.equal(withCharset.status, 200, 'a charset parameter and any case are fine')
  t.same(await withCharset.json(), { a: 1 })
})
