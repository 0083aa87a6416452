import t from 'tap'

import { call, executor } from './executor-fixture.js'
import { fakeDns, loopbackServer } from './loopback-server.js'

t.test('GET of an allowed host returns status, safe headers and the body', async (t) => {
  const { port, requests } = await loopbackServer(t, (_req, res) => {
    res.setHeader('content-type', 'application/json')
    res.setHeader('set-cookie', 'session=abc')
    res.setHeader('x-internal', 'yes')
    res.end('{"ok":true}')
  })
  // `api.test` exists only in the fake DNS: the system resolver cannot find it, so the request
  // reaching the server proves the connection used the address checked here, not a lookup of its own.
  const dns = fakeDns({ 'api.test': ['127.0.0.1'] })
  const arm = executor({ fetchAllow: ['api.test'], lookup: dns, testAllowAddresses: ['127.0.0.1'] })
  const out = await call(arm, 'http_fetch', { url: `http://api.test:${port}/items?x=1`, headers: { accept: 'application/json' } })
  t.same(out, {
    url: `http://api.test:${port}/items?x=1`,
    status: 200,
    headers: { 'content-type': 'application/json', 'content-length': '11', date: (out as { headers: { date: string } }).headers.date },
    body: '{"ok":true}',
    truncated: false,
  })
  t.same(dns.calls, ['api.test'])
  t.equal(requests.length, 1)
  t.equal(requests[0]!.url, '/items?x=1')
  t.equal(requests[0]!.headers.host, `api.test:${port}`)
  t.equal(requests[0]!.headers.accept, 'application/json')
  t.equal(requests[0]!.headers.cookie, undefined)
  t.equal(requests[0]!.headers.authorization, undefined)
})

t.test('HEAD returns no body; a 404 is a result, not an error', async (t) => {
  const { port } = await loopbackServer(t, (req, res) => {
    res.statusCode = req.url === '/missing' ? 404 : 200
    res.end('body')
  })
  const arm = executor({ fetchAllow: ['api.test'], lookup: fakeDns({ 'api.test': ['127.0.0.1'] }), testAllowAddresses: ['127.0.0.1'] })
  t.match(await call(arm, 'http_fetch', { url: `http://api.test:${port}/`, method: 'HEAD' }), { status: 200, body: '' })
  t.match(await call(arm, 'http_fetch', { url: `http://api.test:${port}/missing` }), { status: 404, body: 'body' })
})
