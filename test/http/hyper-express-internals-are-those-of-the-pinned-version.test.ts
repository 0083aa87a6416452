// src/http/hyper-express-internals.ts reads and drives private parts of hyper-express. This test
// names each of them on a real request, so an upgrade that moves one fails here, loudly, rather
// than as a body that never arrives or a disconnect nobody sees.
import HyperExpress from 'hyper-express'
import t from 'tap'
import { installedVersion, PINNED_VERSION, pathParameters, remoteAddress } from '../../src/http/hyper-express-internals.js'

t.test('the installed hyper-express is the pinned version', async (t) => {
  t.equal(installedVersion(), PINNED_VERSION)
})

t.test('every private part the HTTP layer uses is where it reads it', async (t) => {
  const server = new HyperExpress.Server({ auto_close: false })
  t.teardown(() => server.close())
  const seen: Record<string, string> = {}
  server.post('/items/:id', (req, res) => {
    const r = req as unknown as Record<string, unknown>
    const s = res as unknown as Record<string, unknown>
    const kind = (v: unknown) => (v === null ? 'null' : typeof v)
    seen.params = JSON.stringify(pathParameters(req))
    seen.address = remoteAddress(res)
    seen.mode = kind(r._body_parser_mode)
    seen.passthrough = '_body_parser_passthrough' in r ? 'present' : 'missing'
    seen.flush = kind(r._body_parser_flush_buffered)
    seen.stop = kind(r._body_parser_stop)
    seen.received = kind(r.received)
    seen.onData = kind((r._raw_response as Record<string, unknown> | undefined)?.onData)
    seen.completed = kind(s.completed)
    seen.initiated = kind(s.initiated)
    seen.writable = '_writable' in s ? 'present' : 'missing'
    seen.wrapped = s._wrapped_request === req ? 'the request' : 'something else'
    seen.emit = kind(s.emit)
    seen.onAborted = kind((res.raw as unknown as Record<string, unknown>).onAborted)
    seen.uwsClose = kind((server.uws_instance as unknown as Record<string, unknown>).close)
    res.send('ok')
  })
  await server.listen(0, '127.0.0.1')
  const reply = await fetch(`http://127.0.0.1:${server.port}/items/a%20b`, { method: 'POST', body: '{}' })
  t.equal(await reply.text(), 'ok')
  t.same(seen, {
    params: JSON.stringify({ id: 'a%20b' }),
    address: '127.0.0.1',
    mode: 'number',
    passthrough: 'present',
    flush: 'function',
    stop: 'function',
    received: 'boolean',
    onData: 'function',
    completed: 'boolean',
    initiated: 'boolean',
    writable: 'present',
    wrapped: 'the request',
    emit: 'function',
    onAborted: 'function',
    uwsClose: 'function',
  })
})
