import t from 'tap'
import type { Decision, Limit, RateLimitStore } from '../../src/stores/rate-limit-store.js'
import { bodyOf, checkRouteFixture, headersOf } from './check-route-fixture.js'

t.test('each user gets the per-user capacity, then a 429 with Retry-After; nothing is checked then', async (t) => {
  for (const native of [true, false]) {
    const { call, detector } = checkRouteFixture({ native })
    for (const remaining of ['2', '1', '0'])
      t.equal(headersOf(await call({ text: 'hello', user_id: 'u1' }))['ratelimit-remaining'], remaining)
    const refused = call({ text: 'hello', user_id: 'u1' })
    await t.rejects(refused, { code: 'RATE_LIMIT', status: 429, headers: { 'Retry-After': '20', 'RateLimit-Remaining': '0' } })
    t.equal(detector.stats().checks, 3, native ? 'native' : 'ports')
    t.equal(headersOf(await call({ text: 'hello', user_id: 'u2' }))['ratelimit-remaining'], '2', 'another user has a bucket of their own')
  }
})

t.test('without the native endpoint, a limiter that is not in-process (Redis) is asked once, through take', async (t) => {
  const calls: string[] = []
  const limiter: RateLimitStore = {
    take: async (key: string, limit: Limit): Promise<Decision> => {
      calls.push(key)
      return { allowed: true, limit: limit.capacity, remaining: 9, resetMs: 1_000, retryAfterMs: 0 }
    },
  }
  const { call } = checkRouteFixture({ native: false, limiter })
  const reply = await call({ text: 'hello', user_id: 'u9' })
  t.same(calls, ['user:u9'])
  t.equal(headersOf(reply)['ratelimit-remaining'], '9')
  t.equal(bodyOf(reply).cache_hit, false)
})
