import t from 'tap'
import { errorOf, JSON_HEADERS, startApp } from './fixtures/start-app.js'

t.test('returns 413 when a chunked body (no Content-Length) grows past the limit', async (t) => {
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

  const chunk = new TextEncoder().encode(`"${'x'.repeat(40)}",`)
  let sent = 0
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (sent++ === 10) return controller.close()
      await new Promise((resolve) => setTimeout(resolve, 5))
      controller.enqueue(chunk)
    },
  })
  const res = await fetch(`${url}/echo`, { method: 'POST', headers: JSON_HEADERS, body, duplex: 'half' } as RequestInit)
  t.equal(res.status, 413)
  t.equal((await errorOf(res)).code, 'PAYLOAD_TOO_LARGE')
  t.notOk(called)
})
