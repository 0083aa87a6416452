import t from 'tap'
import { HttpError } from '../../src/http/errors.js'
import { errorOf, startApp } from './fixtures/start-app.js'

t.test('sends the headers of an HttpError, e.g. Retry-After and RateLimit-* on a 429', async (t) => {
  const { url } = await startApp(t, (app) =>
    app.route(
      'GET',
      '/limited',
      () => {
        throw HttpError.rateLimit(2.2, { 'ratelimit-limit': '100', 'ratelimit-remaining': '0', 'ratelimit-reset': '3' })
      },
      { permission: 'public' },
    ),
  )

  const res = await fetch(`${url}/limited`)
  t.equal(res.status, 429)
  t.equal(res.headers.get('retry-after'), '3')
  t.equal(res.headers.get('ratelimit-limit'), '100')
  t.equal(res.headers.get('ratelimit-remaining'), '0')
  t.equal(res.headers.get('ratelimit-reset'), '3')
  t.ok(res.headers.get('x-request-id'))
  t.equal((await errorOf(res)).code, 'RATE_LIMIT')
})
