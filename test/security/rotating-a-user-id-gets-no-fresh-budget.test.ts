// A client-supplied user id never selects a rate-limit bucket: sending a fresh `user_id` (or
// `X-User-ID`) with each request used to give every request a fresh per-user budget. Now the
// budget is the caller's (its address with auth off, its principal with auth on) whatever it sends.
import t from 'tap'
import { postJson, reflexUrl } from '../helpers/servers.js'

t.test('a fresh user_id or X-User-ID on every request does not reset the budget', async (t) => {
  const base = await reflexUrl(t, { RATE_LIMIT_PER_IP: '2', RATE_LIMIT_PER_USER: '1000' })
  const send = (i: number) =>
    postJson(`${base}/api/v1/check`, { text: `hello ${i}`, user_id: `rotated-${i}` }, { 'x-user-id': `rotated-header-${i}` })
  t.equal((await send(1)).status, 200)
  t.equal((await send(2)).status, 200)
  const refused = await send(3)
  t.equal(refused.status, 429, 'the third request is refused although it names a new user')
  t.equal(refused.headers.get('ratelimit-limit'), '2', 'the per-address budget, not a per-user one')
})
