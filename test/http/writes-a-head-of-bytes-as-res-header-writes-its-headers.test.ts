import { connect } from 'node:net'
import t from 'tap'
import type { Ctx } from '../../src/http/app.js'
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
  return Buffer.concat(chunks)
    .toString('latin1')
    .replace(/^date: .*$/im, 'date: X')
}

t.test('a head of bytes goes out as res.header writes its headers: sync or after the body, string or Buffer body', async (t) => {
  const headers = { 'ratelimit-limit': '3', 'ratelimit-remaining': '2', 'x-other': 'a b' }
  // The same headers as the head the check route's addon writes: the request id first.
  const head = (ctx: Ctx) =>
    Buffer.from(
      `${ctx.requestId}\r\ncontent-type: application/json; charset=utf-8\r\nratelimit-limit: 3\r\nratelimit-remaining: 2\r\nx-other: a b`,
    )
  const { url } = await startApp(t, (app) => {
    for (const bytes of [false, true]) {
      const reply = (ctx: Ctx, raw: string | Buffer) => ({ status: 200, raw, ...(bytes ? { head: head(ctx) } : { headers }) })
      // From a bytes route (the check route's way: once the body is read, after the handler's tick).
      app.route('POST', `/bytes/${bytes}`, (ctx) => reply(ctx, Buffer.from('{"a":1}')), { permission: 'public', body: 'bytes' })
      // From the handler, in its own tick and after an await.
      app.route('POST', `/sync/${bytes}`, (ctx) => reply(ctx, '{"a":2}'), { permission: 'public' })
      app.route(
        'POST',
        `/later/${bytes}`,
        async (ctx) => {
          await new Promise((resolve) => setTimeout(resolve, 1))
          return reply(ctx, '{"a":3}')
        },
        { permission: 'public' },
      )
    }
  })
  for (const path of ['bytes', 'sync', 'later']) {
    const plain = await rawReply(url, `/${path}/false`, '{"x":1}', 'rid-1')
    const bytes = await rawReply(url, `/${path}/true`, '{"x":1}', 'rid-1')
    t.match(plain, /^HTTP\/1\.1 200 OK\r\nx-request-id: rid-1\r\ncontent-type: application\/json; charset=utf-8\r\nratelimit-limit: 3\r\n/)
    t.equal(bytes, plain, path)
  }
})

t.test('a head and body in reused memory are sent as they were when the route returned', async (t) => {
  // The route overwrites its memory as soon as it has returned, as the check route's next call would.
  const room = Buffer.alloc(64)
  const { url } = await startApp(t, (app) => {
    app.route(
      'POST',
      '/reused',
      (ctx) => {
        const head = `${ctx.requestId}\r\ncontent-type: application/json; charset=utf-8`
        const n = room.write(`${head}{"a":1}`, 'latin1')
        queueMicrotask(() => room.fill(0x21))
        return { status: 200, head: room.subarray(0, head.length), raw: room.subarray(head.length, n), rawReused: true }
      },
      { permission: 'public', body: 'bytes' },
    )
  })
  const reply = await rawReply(url, '/reused', '{"x":1}', 'rid-2')
  t.match(reply, /^HTTP\/1\.1 200 OK\r\nx-request-id: rid-2\r\ncontent-type: application\/json; charset=utf-8\r\n/)
  t.match(reply, /\r\n\r\n\{"a":1\}$/)
})
