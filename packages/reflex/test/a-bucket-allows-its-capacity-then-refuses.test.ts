import { RateLimiter } from '@ganglion/reflex'
import t from 'tap'

t.test('a bucket allows capacity requests, then refuses with the time to the next token', async (t) => {
  const limiter = new RateLimiter()
  const limit = { capacity: 4, windowMs: 60_000 }
  const taken = Array.from({ length: 4 }, () => limiter.take('ada', limit))
  t.strictSame(
    taken.map((d) => [d.allowed, d.limit, d.remaining, d.retryAfterMs]),
    [
      [true, 4, 3, 0],
      [true, 4, 2, 0],
      [true, 4, 1, 0],
      [true, 4, 0, 0],
    ],
  )
  const refused = limiter.take('ada', limit)
  t.strictSame(Object.keys(refused), ['allowed', 'limit', 'remaining', 'resetMs', 'retryAfterMs'])
  t.equal(refused.allowed, false)
  t.equal(refused.limit, 4)
  t.equal(refused.remaining, 0)
  // One token refills every windowMs / capacity = 15 s, less what has passed since the first take.
  t.ok(refused.retryAfterMs > 14_000 && refused.retryAfterMs <= 15_000, `retryAfterMs ${refused.retryAfterMs} ≈ 15,000`)
  t.ok(refused.resetMs > 59_000 && refused.resetMs <= 60_000, `resetMs ${refused.resetMs} ≈ the window`)
  const again = limiter.take('ada', limit)
  t.equal(again.allowed, false, 'a refused take takes nothing, and the bucket stays empty')
  t.ok(again.retryAfterMs <= refused.retryAfterMs)
})

t.test('resetMs is the time until the bucket is full again', async (t) => {
  const limiter = new RateLimiter()
  const limit = { capacity: 4, windowMs: 60_000 }
  const first = limiter.take('bob', limit)
  t.ok(first.resetMs > 14_000 && first.resetMs <= 15_000, `one token short: ${first.resetMs} ≈ 15,000`)
  const second = limiter.take('bob', limit)
  t.ok(second.resetMs > 29_000 && second.resetMs <= 30_000, `two tokens short: ${second.resetMs} ≈ 30,000`)
  const peek = limiter.take('carol', limit, 0)
  t.strictSame(peek, { allowed: true, limit: 4, remaining: 4, resetMs: 0, retryAfterMs: 0 }, 'a full bucket, read with a cost of 0')
})

t.test('a cost takes that many tokens', async (t) => {
  const limiter = new RateLimiter()
  const limit = { capacity: 10, windowMs: 60_000 }
  t.match(limiter.take('k', limit, 7), { allowed: true, remaining: 3 })
  const refused = limiter.take('k', limit, 4)
  t.match(refused, { allowed: false, remaining: 3 }, 'four tokens are not there')
  t.ok(refused.retryAfterMs > 5_000 && refused.retryAfterMs <= 6_000, `one more token takes ≈ 6 s: ${refused.retryAfterMs}`)
  t.match(limiter.take('k', limit, 3), { allowed: true, remaining: 0 }, 'three are')
})
