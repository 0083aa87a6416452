import { connect } from 'node:net'
import t from 'tap'
import { startApp } from './fixtures/start-app.js'

/** The raw response to `POST path` with `body` and `X-Request-ID: rid`, its Date line masked. */
async function rawReply(url: string, path: string, body: string, rid: string): Promise<string> {
  const { hostname, port } = new URL(url)
  const socket = connect(Number(port), hostname)
  const chunks: Buffer[] = []
  socket.on('data', (chunk: Buffer) => chunks.push(chunk))
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: x\r\nX-Request-ID: ${rid}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
  await new Promise((resolve) => socket.on('close', resolve))
  return Buffer.concat(chunks).toString('latin1').replace(/^date: .*$/im, 'date: X')
}

t.test('writes headers marked extra in the bytes res.header writes, sync or after the body, string or Buffer body', async (t) => {
  const headers = { 'RateLimit-Limit': '3', 'ratelimit-remaining': '2', 'X-Other': 'a b' }
  const { url } = await startApp(t, (app) => {
    for (const extra of [false, true]) {
      const reply = (raw: string | Buffer) => ({ status: 200, headers, raw, ...(extra && { headersExtra: true }) })
      // From the body's bytes (the check route's way: after the handler's tick, so corked here).
      app.route('POST', `/bytes/${extra}`, () => ({ body: 'unused' }), { fromBytes: () => reply(Buffer.from('{"a":1}')) })
      // From the handler, in its own tick and after an await.
      app.route('POST', `/sync/${extra}`, () => reply('{"a":2}'))
      app.route('POST', `/later/${extra}`, async () => {
        await new Promise((resolve) => setTimeout(resolve, 1))
        return reply('{"a":3}')
      })
    }
  })
  for (const path of ['bytes', 'sync', 'later']) {
    const plain = await rawReply(url, `/${path}/false`, '{"x":1}', 'rid-1')
    const extra = await rawReply(url, `/${path}/true`, '{"x":1}', 'rid-1')
    t.match(plain, /^HTTP\/1\.1 200 OK\r\nx-request-id: rid-1\r\ncontent-type: application\/json; charset=utf-8\r\nratelimit-limit: 3\r\n/)
    t.equal(extra, plain, path)
  }
})
