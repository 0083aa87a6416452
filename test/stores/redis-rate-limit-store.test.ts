import { RateLimiter } from '@ganglion/reflex'
import t from 'tap'
import { MemoryRateLimitStore } from '../../src/stores/memory-rate-limit-store.js'
import { connectRedis } from '../../src/stores/redis-client.js'
import { RedisRateLimitStore } from '../../src/stores/redis-rate-limit-store.js'
import { dropRedisPrefix, redisTestPrefix } from './cache-store-contract.js'
import { rateLimitStoreContract } from './rate-limit-store-contract.js'

const url = process.env.REDIS_URL
if (url === undefined || url === '') {
  t.skip('REDIS_URL not set: the global rate-limit contract needs a real Redis', () => {})
} else {
  const prefix = redisTestPrefix('redis-rate-limit-store')
  const redis = await connectRedis(url)
  t.teardown(async () => {
    await dropRedisPrefix(redis, prefix)
    await redis.close()
  })

  const contractStores: RedisRateLimitStore[] = []
  rateLimitStoreContract(t, async () => {
    const store = new RedisRateLimitStore(redis, new MemoryRateLimitStore(new RateLimiter()), { prefix })
    contractStores.push(store)
    return { store, close: async () => {} }
  })

  t.test('every contract decision came from Redis, none from the in-process fallback', async (t) => {
    t.ok(contractStores.length > 0)
    t.same(
      contractStores.map((s) => s.health()),
      contractStores.map(() => ({ redis: 'up', fallback_decisions: 0 })),
    )
  })

  t.test('two instances with their own connections share one bucket', async (t) => {
    const other = await connectRedis(url)
    t.teardown(() => other.close())
    const a = new RedisRateLimitStore(redis, new MemoryRateLimitStore(new RateLimiter()), { prefix })
    const b = new RedisRateLimitStore(other, new MemoryRateLimitStore(new RateLimiter()), { prefix })
    const limit = { capacity: 4, windowMs: 60_000 }
    const decisions = await Promise.all([a, b, a, b, a, b].map((s) => s.take('shared', limit)))
    t.equal(decisions.filter((d) => d.allowed).length, 4, 'exactly the capacity passes across instances')
    t.same(
      decisions
        .filter((d) => d.allowed)
        .map((d) => d.remaining)
        .sort(),
      [0, 1, 2, 3],
      'each token taken once',
    )
  })

  t.test('it answers as the in-process bucket does', async (t) => {
    const redisStore = new RedisRateLimitStore(redis, new MemoryRateLimitStore(new RateLimiter()), { prefix })
    const memoryStore = new MemoryRateLimitStore(new RateLimiter())
    const limit = { capacity: 3, windowMs: 60_000 }
    // The two buckets read their clocks at slightly different moments within each pair of calls,
    // so their times may differ by up to the first pair's duration plus the current one's.
    let slowestPairMs = 0
    for (const cost of [1, 1, 2, 1, 4, 0, 1]) {
      const started = Date.now()
      const [r, m] = await Promise.all([redisStore.take('parity', limit, cost), memoryStore.take('parity', limit, cost)])
      slowestPairMs = Math.max(slowestPairMs, Date.now() - started)
      const bound = 2 * slowestPairMs + 2
      t.same(
        { allowed: r.allowed, limit: r.limit, remaining: r.remaining },
        { allowed: m.allowed, limit: m.limit, remaining: m.remaining },
        `cost ${cost}`,
      )
      t.ok(Math.abs(r.resetMs - m.resetMs) <= bound, `resetMs ${r.resetMs} ≈ ${m.resetMs} (±${bound})`)
      t.ok(Math.abs(r.retryAfterMs - m.retryAfterMs) <= bound, `retryAfterMs ${r.retryAfterMs} ≈ ${m.retryAfterMs} (±${bound})`)
    }
  })

  t.test('the bucket is a hash that expires once it would be full again', async (t) => {
    const store = new RedisRateLimitStore(redis, new MemoryRateLimitStore(new RateLimiter()), { prefix })
    await store.take('shape', { capacity: 10, windowMs: 10_000 }, 2)
    const bucket = await redis.client.hgetall(`${prefix}rl:shape`)
    t.same(Object.keys(bucket).sort(), ['tokens', 'ts', 'w'])
    t.equal(Number(bucket.tokens), 8 * 10_000, 'tokens are kept in token·ms')
    const pttl = await redis.client.pttl(`${prefix}rl:shape`)
    t.ok(pttl > 1_900 && pttl <= 2_000, `expires when refilled (${pttl} ms)`)
  })

  t.test('the script is re-sent when Redis has forgotten it (NOSCRIPT)', async (t) => {
    const store = new RedisRateLimitStore(redis, new MemoryRateLimitStore(new RateLimiter()), { prefix })
    await store.take('flush', { capacity: 3, windowMs: 1000 })
    await redis.client.script('FLUSH')
    const d = await store.take('flush', { capacity: 3, windowMs: 1000 })
    t.equal(d.remaining, 1)
    t.equal(store.health().fallback_decisions, 0)
  })
}
