import t from 'tap'
import { startApp } from './fixtures/start-app.js'

t.test('gives handlers decoded params, the query, headers, the method, path and client ip', async (t) => {
  const { url } = await startApp(t, (app) =>
    app.route(
      'GET',
      '/api/v1/cache/:key',
      (ctx) => ({
        body: {
          params: ctx.params,
          page: ctx.query.get('page'),
          agent: ctx.headers('X-Test'),
          method: ctx.method,
          path: ctx.path,
          ip: ctx.ip,
          body: ctx.body ?? null,
        },
      }),
      { permission: 'public' },
    ),
  )

  const res = await fetch(`${url}/api/v1/cache/h%C3%A9llo%20x?page=2`, { headers: { 'x-test': 'yes', 'x-forwarded-for': '203.0.113.9' } })
  t.equal(res.status, 200)
  t.same(await res.json(), {
    params: { key: 'héllo x' },
    page: '2',
    agent: 'yes',
    method: 'GET',
    path: '/api/v1/cache/h%C3%A9llo%20x',
    ip: '127.0.0.1',
    body: null,
  })

  const bad = await fetch(`${url}/api/v1/cache/%E0%A4%A`)
  t.equal(bad.status, 400, 'a malformed escape is a validation error')
  t.equal(((await bad.json()) as { error: { details: { field: string } } }).error.details.field, 'key')
})

t.test('takes the client ip from X-Forwarded-For only with trustProxy', async (t) => {
  const { url } = await startApp(t, (app) => app.route('GET', '/ip', (ctx) => ({ body: { ip: ctx.ip } }), { permission: 'public' }), {
    trustProxy: true,
  })
  const res = await fetch(`${url}/ip`, { headers: { 'x-forwarded-for': '203.0.113.9, 10.0.0.1' } })
  t.same(await res.json(), { ip: '203.0.113.9' })
  t.same(await (await fetch(`${url}/ip`)).json(), { ip: '127.0.0.1' })
})
