import t from 'tap'
import { errorOf, startApp } from './fixtures/start-app.js'

t.test('answers a generic 500 for unexpected errors and logs them with the request id', async (t) => {
  const { url, logs } = await startApp(t, (app) => {
    app.route(
      'GET',
      '/sync',
      () => {
        throw new Error('password=hunter2 at db.internal:5432')
      },
      { permission: 'public' },
    )
    app.route(
      'GET',
      '/async',
      async () => {
        await Promise.resolve()
        throw new TypeError('cannot read x of undefined')
      },
      { permission: 'public' },
    )
    app.route('GET', '/unserialisable', () => ({ body: { n: 1n } }), { permission: 'public' })
  })

  for (const path of ['/sync', '/async', '/unserialisable']) {
    const res = await fetch(`${url}${path}`, { headers: { 'x-request-id': `req${path}` } })
    t.equal(res.status, 500, path)
    const text = await res.text()
    t.notMatch(text, /hunter2|db\.internal|undefined|BigInt|at /, 'no internals in the body')
    const { error } = JSON.parse(text) as { error: { code: string; message: string; details: object } }
    t.equal(error.code, 'INTERNAL_ERROR')
    t.equal(error.message, 'Internal server error')
    t.same(error.details, {})
  }
  t.equal(logs.length, 3)
  t.equal(logs[0]?.requestId, 'req/sync')
  t.match(String(logs[0]?.err), /hunter2/, 'the log keeps the real error')
  t.ok(await errorOf(await fetch(`${url}/sync`)))
})
