import t from 'tap'
import { HttpError } from '../../src/http/errors.js'
import { streamWrite } from '../../src/http/stream-write.js'
import { errorOf, startApp } from './fixtures/start-app.js'

t.test('stream routes get the raw response with X-Request-ID set, and errors before writing become error objects', async (t) => {
  const { url } = await startApp(t, (app) => {
    app.stream(
      'GET',
      '/events',
      async (_ctx, res) => {
        res.header('content-type', 'text/event-stream')
        await streamWrite(res, 'id: 1\ndata: {"n":1}\n\n')
        await streamWrite(res, 'id: 2\ndata: {"n":2}\n\n')
        res.end()
      },
      { permission: 'public' },
    )
    app.stream(
      'GET',
      '/missing',
      async () => {
        throw HttpError.notFound('task_id')
      },
      { permission: 'public' },
    )
  })

  const res = await fetch(`${url}/events`, { headers: { 'x-request-id': 'sse-1' } })
  t.equal(res.status, 200)
  t.equal(res.headers.get('x-request-id'), 'sse-1')
  t.equal(res.headers.get('content-type'), 'text/event-stream')
  t.equal(await res.text(), 'id: 1\ndata: {"n":1}\n\nid: 2\ndata: {"n":2}\n\n')

  const missing = await fetch(`${url}/missing`)
  t.equal(missing.status, 404)
  t.equal((await errorOf(missing)).details.field, 'task_id')
})
