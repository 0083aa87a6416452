import t from 'tap'
import { clientIp } from '../../src/http/client-ip.js'

t.test('uses X-Forwarded-For only when the proxy is trusted', async (t) => {
  t.equal(clientIp('10.0.0.1', '203.0.113.9', false), '10.0.0.1')
  t.equal(clientIp('10.0.0.1', '203.0.113.9, 10.0.0.2', true), '203.0.113.9')
  t.equal(clientIp('10.0.0.1', undefined, true), '10.0.0.1')
  t.equal(clientIp('10.0.0.1', ' , x', true), '10.0.0.1')
})
