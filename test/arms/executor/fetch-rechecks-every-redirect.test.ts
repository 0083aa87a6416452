import t, { type Test } from 'tap'

import { call, executor } from './executor-fixture.js'
import { fakeDns, loopbackServer } from './loopback-server.js'

async function redirecting(t: Test, routes: Record<string, string>) {
  const server = await loopbackServer(t, (req, res) => {
    const target = routes[req.url ?? '']
    if (target) {
      res.statusCode = 302
      res.setHeader('location', target.replace('PORT', String(server.port)))
      res.end()
    } else res.end(`final ${req.url}`)
  })
  return server
}

const seams = {
  lookup: fakeDns({ 'a.test': ['127.0.0.1'], 'b.test': ['127.0.0.1'], 'meta.test': ['169.254.169.254'] }),
  testAllowAddresses: ['127.0.0.1'],
}

t.test('a redirect to an allowed host is followed', async (t) => {
  const { port, requests } = await redirecting(t, { '/start': 'http://b.test:PORT/next', '/next': '/end' })
  const out = await call(executor({ fetchAllow: ['a.test', 'b.test'], ...seams }), 'http_fetch', { url: `http://a.test:${port}/start` })
  t.match(out, { url: `http://b.test:${port}/end`, status: 200, body: 'final /end' })
  t.same(
    requests.map((r) => r.url),
    ['/start', '/next', '/end'],
  )
})

t.test('a redirect to a host off the list is HOST_NOT_ALLOWED', async (t) => {
  const { port } = await redirecting(t, { '/start': 'http://evil.test:PORT/' })
  await t.rejects(call(executor({ fetchAllow: ['a.test'], ...seams }), 'http_fetch', { url: `http://a.test:${port}/start` }), {
    code: 'HOST_NOT_ALLOWED',
  })
})

t.test('a redirect to a private address is ADDRESS_NOT_ALLOWED', async (t) => {
  const { port } = await redirecting(t, { '/start': 'http://meta.test/latest/meta-data/', '/literal': 'http://10.0.0.1/' })
  const arm = executor({ fetchAllow: ['a.test', 'meta.test', '10.0.0.1'], ...seams })
  await t.rejects(call(arm, 'http_fetch', { url: `http://a.test:${port}/start` }), {
    code: 'ADDRESS_NOT_ALLOWED',
    message: /169\.254\.169\.254/,
  })
  await t.rejects(call(arm, 'http_fetch', { url: `http://a.test:${port}/literal` }), { code: 'ADDRESS_NOT_ALLOWED' })
})

t.test('a redirect to another scheme is refused', async (t) => {
  const { port } = await redirecting(t, { '/start': 'file:///etc/passwd' })
  await t.rejects(call(executor({ fetchAllow: ['a.test'], ...seams }), 'http_fetch', { url: `http://a.test:${port}/start` }), {
    code: 'INPUT_INVALID',
    message: /http or https/,
  })
})

t.test('more than 3 redirects is TOO_MANY_REDIRECTS', async (t) => {
  const { port, requests } = await redirecting(t, { '/1': '/2', '/2': '/3', '/3': '/4', '/4': '/5' })
  await t.rejects(call(executor({ fetchAllow: ['a.test'], ...seams }), 'http_fetch', { url: `http://a.test:${port}/1` }), {
    code: 'TOO_MANY_REDIRECTS',
  })
  t.equal(requests.length, 4)
})

t.test("the caller's headers follow a redirect on the same origin only", async (t) => {
  const { port, requests } = await redirecting(t, { '/start': '/same', '/same': 'http://b.test:PORT/other' })
  const arm = executor({ fetchAllow: ['a.test', 'b.test'], ...seams })
  await call(arm, 'http_fetch', { url: `http://a.test:${port}/start`, headers: { 'x-api-key': 'k1' } })
  t.same(
    requests.map((r) => [r.url, r.headers['x-api-key']]),
    [
      ['/start', 'k1'],
      ['/same', 'k1'],
      ['/other', undefined],
    ],
  )
})
