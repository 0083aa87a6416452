import t from 'tap'
import { errorOf, JSON_HEADERS, startApp } from './fixtures/start-app.js'

t.test('returns 400 VALIDATION_ERROR on field "body" for malformed JSON', async (t) => {
  const { url } = await startApp(t, (app) => app.route('POST', '/echo', (ctx) => ({ body: ctx.body }), { permission: 'public' }))

  for (const body of ['{"text": "unterminated', '{text: 1}', '{"a":1} trailing']) {
    const res = await fetch(`${url}/echo`, { method: 'POST', headers: JSON_HEADERS, body })
    t.equal(res.status, 400, body)
    const error = await errorOf(res)
    t.equal(error.code, 'VALIDATION_ERROR')
    t.same(error.details, { field: 'body', constraint: 'must be valid JSON' })
  }
})
