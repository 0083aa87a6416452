import t from 'tap'

import { call, executor } from './executor-fixture.js'
import { fakeDns, loopbackServer } from './loopback-server.js'

t.test('loopback on the allow-list is still refused, and never contacted', async (t) => {
  const { port, requests } = await loopbackServer(t, (_req, res) => res.end('secret'))
  // The real resolver for localhost; literals need none.
  const arm = executor({ fetchAllow: ['localhost', '127.0.0.1', '::1'] })
  for (const url of [`http://localhost:${port}/`, `http://127.0.0.1:${port}/`, `http://[::1]:${port}/`]) {
    await t.rejects(call(arm, 'http_fetch', { url }), { code: 'ADDRESS_NOT_ALLOWED', retryable: false }, url)
  }
  t.equal(requests.length, 0)
})

const privateAddresses = [
  '10.1.2.3',
  '172.16.0.1',
  '192.168.1.1',
  '169.254.169.254',
  '100.64.0.1',
  '0.0.0.0',
  '224.0.0.1',
  '255.255.255.255',
  '192.0.2.1',
  '::',
  'fe80::1',
  'fd00::1',
  'ff02::1',
  '::ffff:127.0.0.1',
  '::ffff:10.0.0.1',
  '64:ff9b::a00:1',
  '2002:a00:1::1',
]

t.test('a name resolving to any non-public address is ADDRESS_NOT_ALLOWED', async (t) => {
  for (const address of privateAddresses) {
    const arm = executor({ fetchAllow: ['internal.example'], lookup: fakeDns({ 'internal.example': [address] }) })
    await t.rejects(call(arm, 'http_fetch', { url: 'http://internal.example/' }), { code: 'ADDRESS_NOT_ALLOWED' }, address)
  }
})

t.test('IP literals of private ranges on the list are refused too', async (t) => {
  const arm = executor({ fetchAllow: ['10.0.0.5', '169.254.169.254', 'fd00::1'] })
  for (const url of ['http://10.0.0.5/', 'http://169.254.169.254/latest/meta-data/', 'http://[fd00::1]/']) {
    await t.rejects(call(arm, 'http_fetch', { url }), { code: 'ADDRESS_NOT_ALLOWED' }, url)
  }
})

t.test('one private address among public ones refuses the host', async (t) => {
  const arm = executor({ fetchAllow: ['mixed.example'], lookup: fakeDns({ 'mixed.example': ['93.184.216.34', '10.0.0.1'] }) })
  await t.rejects(call(arm, 'http_fetch', { url: 'https://mixed.example/' }), { code: 'ADDRESS_NOT_ALLOWED', message: /10\.0\.0\.1/ })
})
