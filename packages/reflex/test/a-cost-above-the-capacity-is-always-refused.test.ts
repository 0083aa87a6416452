import { RateLimiter } from '@ganglion/reflex'
import t from 'tap'
import { sleep } from './fixtures/reflex.js'

t.test('a cost the bucket can never hold is refused, even from a full bucket, and takes nothing', async (t) => {
  const limiter = new RateLimiter()
  const limit = { capacity: 5, windowMs: 50 }
  for (let i = 0; i < 3; i++) {
    const d = limiter.take('k', limit, 6)
    t.strictSame(d, { allowed: false, limit: 5, remaining: 5, resetMs: 0, retryAfterMs: 50 }, `try ${i + 1}: retry after a window`)
    await sleep(60)
  }
  t.match(limiter.take('k', limit, 5), { allowed: true, remaining: 0 }, 'a cost of the capacity passes from a full bucket')
})
