// What one attempt does, without a service: the signature verifies with the documented recipe
// under the right secret only, and only while its timestamp is fresh; an address the policy refuses
// at delivery time (a name that now resolves to loopback) gives up at once; the status codes map to
// delivered, retry, give up; and stored secrets open only under the key that sealed them.
import t from 'tap'
import { guardedAgent } from '../../src/arms/arm-address.js'
import { checkWebhookUrl, webhookAddressPolicy } from '../../src/webhooks/address.js'
import { attempt, outcomeOf } from '../../src/webhooks/deliver.js'
import { DEFAULT_RETRY, retryDelayMs } from '../../src/webhooks/queue.js'
import { secretBox } from '../../src/webhooks/secret-box.js'
import { newSigningSecret, signatureHeader } from '../../src/webhooks/sign.js'
import { startReceiver, verifySignature } from './webhook-receiver.js'

const body = '{"type":"task.completed"}'

t.test('a signature verifies under its secret and while its timestamp is fresh', async (t) => {
  const secret = newSigningSecret()
  const now = Date.now()
  const seconds = Math.floor(now / 1000)
  t.ok(verifySignature(secret, body, signatureHeader(secret, body, seconds), now))
  t.notOk(verifySignature(newSigningSecret(), body, signatureHeader(secret, body, seconds), now), 'another secret')
  t.notOk(verifySignature(secret, `${body} `, signatureHeader(secret, body, seconds), now), 'another body')
  t.ok(verifySignature(secret, body, signatureHeader(secret, body, seconds - 290), now), '290 s old passes')
  t.notOk(verifySignature(secret, body, signatureHeader(secret, body, seconds - 301), now), 'older than 5 minutes')
  t.notOk(verifySignature(secret, body, signatureHeader(secret, body, seconds + 301), now), 'from the future')
  const fresh = signatureHeader(secret, body, seconds)
  const replayed = fresh.replace(`t=${seconds}`, `t=${seconds + 60}`)
  t.notOk(verifySignature(secret, body, replayed, now), 'a timestamp changed without the signature')
  t.notOk(verifySignature(secret, body, 'garbage', now))
  t.notOk(verifySignature(secret, body, `t=${seconds},v1=`, now))
})

const delivery = (url: string) => ({ id: 'd1', tenant: 'a', event: 'task.completed', url, body, attempts: 0, secret: newSigningSecret() })

t.test('an address the policy refuses at delivery time is given up on at once', async (t) => {
  const receiver = await startReceiver(t)
  // The name resolved to a public address when it was checked; now it resolves to loopback.
  const now = webhookAddressPolicy([], async () => [{ address: '127.0.0.1', family: 4 }])
  const agent = guardedAgent(now)
  t.teardown(() => agent.close())
  const out = await attempt(delivery(receiver.url.replace('127.0.0.1', 'hooks.example.com')), { agent, timeoutMs: 2000 }, new Date())
  t.equal(out.outcome, 'give_up')
  t.equal(out.statusCode, null)
  t.match(out.error, /not allowed/)
  t.equal(receiver.received.length, 0, 'nothing was sent')

  const metadata = await attempt(delivery('http://169.254.169.254/'), { agent, timeoutMs: 2000 }, new Date())
  t.equal(metadata.outcome, 'give_up', 'nor to the metadata address')
})

t.test('a receiver that never answers is a timeout, retried; a closed port too', async (t) => {
  const agent = guardedAgent(webhookAddressPolicy(['127.0.0.0/8']))
  t.teardown(() => agent.close())
  const silent = await import('node:net').then(
    ({ createServer }) =>
      new Promise<{ port: number; close(): void }>((resolve) => {
        const server = createServer(() => {}).listen(0, '127.0.0.1', () =>
          resolve({ port: (server.address() as { port: number }).port, close: () => server.close() }),
        )
      }),
  )
  t.teardown(() => silent.close())
  const started = Date.now()
  const out = await attempt(delivery(`http://127.0.0.1:${silent.port}/`), { agent, timeoutMs: 500 }, new Date())
  t.equal(out.outcome, 'retry')
  t.match(out.error, /within 500 ms/)
  t.ok(Date.now() - started < 3000, 'the attempt ends at its time limit')
  const refused = await attempt(delivery('http://127.0.0.1:9/'), { agent, timeoutMs: 2000 }, new Date())
  t.equal(refused.outcome, 'retry')
  t.match(refused.error, /ECONNREFUSED/)
})

t.test('status codes: 2xx delivered; 408, 429, 5xx retried; anything else given up', async (t) => {
  t.same([200, 201, 204, 299].map(outcomeOf), ['delivered', 'delivered', 'delivered', 'delivered'])
  t.same([408, 429, 500, 502, 503].map(outcomeOf), ['retry', 'retry', 'retry', 'retry', 'retry'])
  t.same([301, 400, 401, 404, 410, 413].map(outcomeOf), ['give_up', 'give_up', 'give_up', 'give_up', 'give_up', 'give_up'])
  const delays = [1, 2, 3, 4, 5].map((n) => retryDelayMs(n, DEFAULT_RETRY) / 1000)
  t.same(delays, [10, 40, 160, 640, 2560], 'six attempts by default, over about 56 minutes')
})

t.test('a stored secret opens only under the key that sealed it', async (t) => {
  const secret = newSigningSecret()
  const sealed = secretBox('k'.repeat(32)).seal(secret)
  t.match(sealed, /^v1:/)
  t.notOk(sealed.includes(secret.slice(6)), 'the secret is not in the stored text')
  t.equal(secretBox('k'.repeat(32)).open(sealed), secret)
  t.throws(() => secretBox('j'.repeat(32)).open(sealed), 'another key cannot open it')
  t.throws(() => secretBox(undefined).open(sealed), /WEBHOOK_SECRET_KEY/)
  t.equal(secretBox(undefined).open(secretBox(undefined).seal(secret)), secret, 'without a key it is kept as it is')
})

t.test('a name that never resolves is refused within five seconds, naming the field', async (t) => {
  const hanging = webhookAddressPolicy([], () => new Promise(() => {}))
  const started = Date.now()
  const refused = await checkWebhookUrl('https://slow.example.com/hooks', 'webhook_url', hanging).then(
    () => undefined,
    (err: unknown) => err,
  )
  t.match(refused, { status: 400, details: { field: 'webhook_url', constraint: 'must name a host that resolves' } })
  t.ok(Date.now() - started < 6000, 'the request did not wait longer')
})
