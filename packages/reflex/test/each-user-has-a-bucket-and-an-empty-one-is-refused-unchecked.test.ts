import t from 'tap'
import { answered, body, endpointWith } from './fixtures/reflex.js'

const request = (userId: string) => body({ text: 'Mail ada@example.com about the report.', user_id: userId })

t.test('the request after the capacity is refused with the decision, and nothing is checked', async (t) => {
  const { detector, cache, endpoint } = endpointWith({ perUser: { capacity: 3, windowMs: 60_000 } })
  for (let i = 0; i < 3; i++) t.match(answered(endpoint.answer(request('u1'), 'r')).decision, { allowed: true, limit: 3, remaining: 2 - i })
  const checked = detector.stats()
  const looked = cache.stats()
  t.equal(checked.checks, 3)
  const refused = endpoint.answer(request('u1'), 'r')
  t.equal(refused?.kind, 'refused')
  t.strictSame(Object.keys(refused!), ['kind', 'decision'], 'no head and no body')
  const d = refused!.decision
  t.match(d, { allowed: false, limit: 3, remaining: 0 })
  t.ok(d.retryAfterMs > 19_000 && d.retryAfterMs <= 20_000, `retryAfterMs ${d.retryAfterMs} ≈ 20,000`)
  t.ok(d.resetMs > 59_000 && d.resetMs <= 60_000, `resetMs ${d.resetMs} ≈ 60,000`)
  t.strictSame(detector.stats(), checked, 'the detector checked nothing')
  t.strictSame(cache.stats(), looked, 'the tier was not looked in')
})

t.test('each user has their own bucket, user:<user_id> in the limiter', async (t) => {
  const { endpoint, tokensLeft } = endpointWith({ perUser: { capacity: 2, windowMs: 60_000 } })
  endpoint.answer(request('u1'), 'r')
  endpoint.answer(request('u1'), 'r')
  t.equal(endpoint.answer(request('u1'), 'r')?.kind, 'refused')
  t.equal(tokensLeft('u1'), 0)
  t.match(answered(endpoint.answer(request('u2'), 'r')).decision, { allowed: true, remaining: 1 }, 'u2 has its own bucket')
  t.match(answered(endpoint.answer(request('U1'), 'r')).decision, { allowed: true, remaining: 1 }, 'user ids are exact')
  t.equal(tokensLeft('u2'), 1)
})

t.test("the endpoint shares the limiter's buckets with other callers", async (t) => {
  const { endpoint, limiter, perUser } = endpointWith({ perUser: { capacity: 2, windowMs: 60_000 } })
  limiter.take('user:u1', perUser, 2)
  t.equal(endpoint.answer(request('u1'), 'r')?.kind, 'refused', 'the tokens taken outside are gone')
})
