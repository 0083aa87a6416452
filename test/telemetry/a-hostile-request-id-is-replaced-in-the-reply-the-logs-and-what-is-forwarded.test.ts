// A client's X-Request-ID is used only when it is short printable text: one too long, or with
// control characters, is replaced by a fresh id, and that id (never the client's) is what the
// reply echoes, what the request's log lines carry and what calls to arms and models forward.
// A usable id is carried to all three as sent.
import { connect } from 'node:net'
import { Writable } from 'node:stream'
import t, { type Test } from 'tap'
import { createLogger } from '../../src/log.js'
import { withRequestIdHeader } from '../../src/telemetry/request-scope.js'
import { startApp } from '../http/fixtures/start-app.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

async function service(t: Test) {
  const lines: Record<string, unknown>[] = []
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line !== '') lines.push(JSON.parse(line))
      done()
    },
  })
  const log = createLogger({ name: 'test', destination })
  const { url } = await startApp(t, (app) =>
    app.route(
      'GET',
      '/work',
      async () => {
        await new Promise((r) => setTimeout(r, 5)) // across an await, as a handler calling an arm would be
        log.info({ step: 'one' }, 'working')
        return { body: { forwarded: withRequestIdHeader({})['x-request-id'] ?? null } }
      },
      { permission: 'public' },
    ),
  )
  return { url, lines }
}

t.test('a usable id reaches the reply, the log line and the forwarded header as sent', async (t) => {
  const { url, lines } = await service(t)
  const res = await fetch(`${url}/work`, { headers: { 'x-request-id': 'order-42/retry:1' } })
  t.equal(res.headers.get('x-request-id'), 'order-42/retry:1')
  t.same(await res.json(), { forwarded: 'order-42/retry:1' })
  t.equal(lines.find((l) => l.msg === 'working')?.request_id, 'order-42/retry:1')
})

t.test('one too long is replaced everywhere', async (t) => {
  const { url, lines } = await service(t)
  const long = 'x'.repeat(5000)
  const res = await fetch(`${url}/work`, { headers: { 'x-request-id': long } })
  const id = res.headers.get('x-request-id') ?? ''
  t.match(id, UUID, 'a fresh id is answered')
  t.same(await res.json(), { forwarded: id }, 'and forwarded')
  const line = lines.find((l) => l.msg === 'working')
  t.equal(line?.request_id, id, 'and logged')
  t.notMatch(JSON.stringify(lines), 'xxxxxxxx', "the client's value is nowhere")
})

t.test('one with control characters is replaced, never echoed', async (t) => {
  const { url, lines } = await service(t)
  const { port } = new URL(url)
  // fetch refuses to send such a header: a raw request does.
  const raw = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write('GET /work HTTP/1.1\r\nHost: x\r\nX-Request-ID: abc\x01\x1b[2Jdef\r\nConnection: close\r\n\r\n')
    })
    let text = ''
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')))
    socket.on('end', () => resolve(text))
    socket.on('error', reject)
  })
  t.notMatch(raw, 'abc\x01', 'the value does not come back')
  t.notMatch(raw, '\x1b', 'no escape sequence comes back')
  const echoed = /x-request-id: ([^\r\n]*)/i.exec(raw)?.[1]
  if (echoed !== undefined) {
    t.match(echoed, UUID, 'a fresh id is answered')
    t.match(raw, `"forwarded":"${echoed}"`, 'and forwarded')
  } else t.ok(raw === '' || raw.startsWith('HTTP/1.1 400'), 'or the request is refused (uWS closes the connection unanswered)')
  t.notMatch(JSON.stringify(lines), 'abc', 'nor is it logged')
})
