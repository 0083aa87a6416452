import t from 'tap'
import { errorOf, JSON_HEADERS, startApp } from './fixtures/start-app.js'

t.test('returns 400 on field "body" when a JSON route gets no body', async (t) => {
  const { url } = await startApp(t, (app) => app.route('POST', '/echo', (ctx) => ({ body: ctx.body }), { permission: 'public' }))

  for (const init of [{}, { headers: JSON_HEADERS }, { headers: JSON_HEADERS, body: '' }, { headers: JSON_HEADERS, body: '  \n' }]) {
    const res = await fetch(`${url}/echo`, { method: 'POST', ...init })
    t.equal(res.status, 400, JSON.stringify(init))
    const error = await errorOf(res)
    t.equal(error.code, 'VALIDATION_ERROR')
    t.equal(error.details.field, 'body')
    t.equal(error.details.constraint, 'must NOT be empty')
  }
})
