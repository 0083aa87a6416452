import t from 'tap'
import { chunkedBody, JSON_HEADERS, startApp } from './fixtures/start-app.js'

// A route that writes every reply into one buffer (Reply.rawReused) and scribbles over it as soon
// as it can: each client still gets its own reply, whether the send happens at once (the body
// has arrived) or has to wait for the end of a chunked body.
t.test('a reused raw body is sent as it was when the route returned', async (t) => {
  const shared = Buffer.alloc(64)
  const { url } = await startApp(t, (app) =>
    app.route(
      'POST',
      '/reuse',
      (ctx) => {
        const length = shared.write(JSON.stringify({ id: ctx.requestId }))
        queueMicrotask(() => shared.fill('x'))
        setImmediate(() => shared.fill('y'))
        return { raw: shared.subarray(0, length), rawReused: true }
      },
      { permission: 'public', body: 'bytes' },
    ),
  )

  const whole = await fetch(`${url}/reuse`, { method: 'POST', headers: { ...JSON_HEADERS, 'x-request-id': 'r-whole' }, body: '{"a":1}' })
  t.same(await whole.json(), { id: 'r-whole' })

  const body = chunkedBody(['{"a":', '1}'])
  const chunked = await fetch(`${url}/reuse`, {
    method: 'POST',
    headers: { ...JSON_HEADERS, 'x-request-id': 'r-chunked' },
    body,
    duplex: 'half',
  } as RequestInit)
  t.same(await chunked.json(), { id: 'r-chunked' })
})
