import t from 'tap'

import { call, executor } from './executor-fixture.js'

t.test('a host not on the list is HOST_NOT_ALLOWED, before any lookup', async (t) => {
  let lookups = 0
  const arm = executor({
    fetchAllow: ['api.example.com', '*.example.org'],
    lookup: async () => {
      lookups++
      return [{ address: '93.184.216.34', family: 4 }]
    },
  })
  for (const url of [
    'https://evil.com/',
    'https://example.com.evil.com/',
    'https://example.org/',
    'https://notexample.org/',
    'http://api.example.com.attacker.net/',
  ]) {
    await t.rejects(call(arm, 'http_fetch', { url }), { code: 'HOST_NOT_ALLOWED', retryable: false }, url)
  }
  t.equal(lookups, 0)
})

t.test('an empty list refuses every fetch', async (t) => {
  await t.rejects(call(executor(), 'http_fetch', { url: 'https://example.com/' }), { code: 'HOST_NOT_ALLOWED', message: /disabled/ })
})

t.test('only http and https, no credentials, no credential headers', async (t) => {
  const arm = executor({ fetchAllow: ['example.com'] })
  const refused: Array<[Record<string, unknown>, RegExp]> = [
    [{ url: 'file:///etc/passwd' }, /http or https/],
    [{ url: 'ftp://example.com/' }, /http or https/],
    [{ url: 'https://user:pw@example.com/' }, /credentials/],
    [{ url: 'https://example.com/', headers: { Authorization: 'Bearer x' } }, /'authorization' may not be set/],
    [{ url: 'https://example.com/', headers: { cookie: 'a=b' } }, /'cookie' may not be set/],
    [{ url: 'https://example.com/', headers: { 'x-a': 'b\r\nHost: evil' } }, /single-line/],
    [{ url: 'https://example.com/', method: 'POST' }, /GET or HEAD/],
    [{ url: 'not a url' }, /not a valid URL/],
    [{}, /'url' is required/],
    [{ url: 'https://example.com/', max_bytes: 0 }, /'max_bytes'/],
  ]
  for (const [input, message] of refused) {
    await t.rejects(call(arm, 'http_fetch', input), { code: 'INPUT_INVALID', message }, JSON.stringify(input))
  }
})

t.test('a malformed allow-list entry stops the arm at start', async (t) => {
  t.throws(() => executor({ fetchAllow: ['https://example.com'] }), /not a host name/)
  t.throws(() => executor({ fetchAllow: ['*'] }), /not a host name/)
})
