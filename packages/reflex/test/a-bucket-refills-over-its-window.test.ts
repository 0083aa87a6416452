import { RateLimiter } from '@ganglion/reflex'
import t from 'tap'
import { sleep } from './fixtures/reflex.js'

t.test('an empty bucket passes again once retryAfterMs has passed', async (t) => {
  const limiter = new RateLimiter()
  const limit = { capacity: 4, windowMs: 800 } // a token every 200 ms
  for (let i = 0; i < 4; i++) limiter.take('k', limit)
  const refused = limiter.take('k', limit)
  t.equal(refused.allowed, false)
  t.ok(refused.retryAfterMs > 0 && refused.retryAfterMs <= 200, `retryAfterMs ${refused.retryAfterMs}`)
  await sleep(refused.retryAfterMs + 20)
  t.match(limiter.take('k', limit), { allowed: true, remaining: 0 }, 'one token came back')
})

t.test('a bucket left for its window is full again, and no fuller', async (t) => {
  const limiter = new RateLimiter()
  const limit = { capacity: 3, windowMs: 60 }
  for (let i = 0; i < 3; i++) limiter.take('k', limit)
  await sleep(150)
  const peek = limiter.take('k', limit, 0)
  t.strictSame(peek, { allowed: true, limit: 3, remaining: 3, resetMs: 0, retryAfterMs: 0 })
  t.equal(limiter.take('k', limit, 3).allowed, true)
  t.equal(limiter.take('k', limit).allowed, false, 'the burst is the capacity, whatever the idle time')
})
