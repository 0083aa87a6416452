import { RateLimiter } from '@ganglion/reflex'
import t from 'tap'

const limit = { capacity: 1, windowMs: 60_000 }

t.test('emptying one key leaves every other key its own full bucket', async (t) => {
  const limiter = new RateLimiter()
  t.equal(limiter.take('ada', limit).allowed, true)
  t.equal(limiter.take('ada', limit).allowed, false)
  for (const key of ['bob', 'Ada', 'ada ', 'user:ada', '😀'])
    t.match(limiter.take(key, limit), { allowed: true, remaining: 0 }, JSON.stringify(key))
  t.equal(limiter.take('ada', limit).allowed, false, 'ada is still empty')
  t.equal(new RateLimiter().take('ada', limit).allowed, true, 'limiters share no buckets')
})

t.test('more keys than maxKeys still each get a bucket', async (t) => {
  const limiter = new RateLimiter({ maxKeys: 2 })
  const first = Array.from({ length: 100 }, (_, i) => limiter.take(`key-${i}`, limit).allowed)
  t.equal(first.filter(Boolean).length, 100, 'each new key is allowed')
  t.equal(limiter.take('key-99', limit).allowed, false, 'the most recent key is still limited')
})

t.test('at maxKeys, refilled buckets go first and an empty one keeps its debt', async (t) => {
  const limiter = new RateLimiter({ maxKeys: 2 })
  t.equal(limiter.take('debtor', limit).allowed, true)
  limiter.take('idle', limit, 0) // a full bucket
  t.equal(limiter.take('newcomer', limit).allowed, true, 'room is made')
  t.equal(limiter.take('debtor', limit).allowed, false, 'the full bucket went, not the debtor')
})

t.test('at maxKeys with no refilled bucket, the least recently used one is forgotten', async (t) => {
  const limiter = new RateLimiter({ maxKeys: 2 })
  limiter.take('a', limit)
  limiter.take('b', limit)
  limiter.take('a', limit) // refused; a is now the most recent
  limiter.take('c', limit) // b goes
  t.equal(limiter.take('b', limit).allowed, true, 'b was forgotten and starts full')
  t.equal(limiter.take('b', limit).allowed, false)
})
