import t from 'tap'
import { RedisCacheStore } from '../../src/stores/redis-cache-store.js'
import { connectRedis } from '../../src/stores/redis-client.js'
import { CONTRACT_MAX_ENTRY_BYTES, cacheStoreContract, dropRedisPrefix, redisTestPrefix } from './cache-store-contract.js'

const url = process.env.REDIS_URL
if (url === undefined || url === '') {
  t.skip('REDIS_URL not set: the Redis cache tier contract needs a real Redis', () => {})
} else {
  const prefix = redisTestPrefix('redis-cache-store')
  const redis = await connectRedis(url)
  t.teardown(async () => {
    await dropRedisPrefix(redis, prefix)
    await redis.close()
  })

  t.test('the connection is up', async (t) => {
    t.same(redis.health(), { redis: 'up' })
  })

  cacheStoreContract(t, async () => ({
    store: new RedisCacheStore(redis, { prefix, maxEntryBytes: CONTRACT_MAX_ENTRY_BYTES }),
    close: async () => {},
  }))

  t.test('entries are stored under the namespace, counted by the index without SCAN', async (t) => {
    const store = new RedisCacheStore(redis, { prefix: `${prefix}ns:`, maxEntryBytes: CONTRACT_MAX_ENTRY_BYTES })
    const set = await store.set('k', '{"a":1}', 60)
    t.same(await redis.client.hgetall(`${prefix}ns:cache:k`), { v: '{"a":1}', c: String(set.createdAt.getTime()) })
    const pttl = await redis.client.pttl(`${prefix}ns:cache:k`)
    t.ok(pttl > 59_000 && pttl <= 60_000, `PX expiry set (${pttl})`)
    await store.set('short', '1', 0.2)
    t.equal((await store.stats()).entries, 2)
    await new Promise((resolve) => setTimeout(resolve, 300))
    t.equal((await store.stats()).entries, 1, 'expired entries leave the count')
    await store.delete('k')
    t.equal((await store.stats()).entries, 0, 'deleted entries leave the count')
  })

  t.test('a store on another prefix does not see the entries', async (t) => {
    const a = new RedisCacheStore(redis, { prefix: `${prefix}a:` })
    const b = new RedisCacheStore(redis, { prefix: `${prefix}b:` })
    await a.set('same', '"a"', 60)
    t.equal(await b.get('same'), undefined)
    t.equal((await b.stats()).entries, 0)
  })
}
