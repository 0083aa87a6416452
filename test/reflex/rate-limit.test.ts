import t from 'tap'
import { postJson, reflexUrl } from '../helpers/servers.js'

t.test('the per-IP limit answers 429 with Retry-After and RateLimit headers', async (t) => {
  const base = await reflexUrl(t, { RATE_LIMIT_PER_IP: '3' })
  for (let i = 0; i < 3; i++) {
    const ok = await postJson(`${base}/api/v1/check`, { text: `hello ${i}` })
    t.equal(ok.status, 200)
    t.equal(ok.headers.get('ratelimit-limit'), '3')
    t.equal(ok.headers.get('ratelimit-remaining'), String(2 - i))
  }
  const refused = await postJson(`${base}/api/v1/check`, { text: 'one more' })
  t.equal(refused.status, 429)
  t.ok(Number(refused.headers.get('retry-after')) >= 1)
  t.equal(refused.headers.get('ratelimit-remaining'), '0')
  const err = (await refused.json()).error
  t.equal(err.code, 'RATE_LIMIT')
  t.equal(err.details.field, 'authorization')
})
