import { CacheTier } from '@ganglion/reflex'
import t from 'tap'
import { MemoryCacheStore } from '../../src/stores/memory-cache-store.js'
import { RedisCacheStore } from '../../src/stores/redis-cache-store.js'
import { connectRedis } from '../../src/stores/redis-client.js'
import { TieredCacheStore } from '../../src/stores/tiered-cache-store.js'
import { CONTRACT_MAX_ENTRY_BYTES, cacheStoreContract, dropRedisPrefix, redisTestPrefix } from './cache-store-contract.js'

const memory = (maxBytes = CONTRACT_MAX_ENTRY_BYTES) => new MemoryCacheStore(new CacheTier({ maxBytes: maxBytes }))

t.test('without Redis', async (t) => {
  cacheStoreContract(t, async () => ({ store: new TieredCacheStore(memory()), close: async () => {} }))

  t.test('health says Redis is disabled, and the store is not shared', async (t) => {
    const store = new TieredCacheStore(memory())
    t.same(store.health(), { redis: 'disabled', remote_failures: 0, pending_invalidations: 0 })
    t.equal(store.shared, false)
  })
})

const url = process.env.REDIS_URL
if (url === undefined || url === '') {
  t.skip('REDIS_URL not set: the tiered store over Redis needs a real Redis', () => {})
} else {
  const prefix = redisTestPrefix('tiered-cache-store')
  const redis = await connectRedis(url)
  t.teardown(async () => {
    await dropRedisPrefix(redis, prefix)
    await redis.close()
  })
  const remote = (maxEntryBytes = CONTRACT_MAX_ENTRY_BYTES) => new RedisCacheStore(redis, { prefix, maxEntryBytes })

  t.test('over Redis', async (t) => {
    cacheStoreContract(t, async () => ({ store: new TieredCacheStore(memory(), remote()), close: async () => {} }))

    t.test('health says Redis is up, and the store is shared', async (t) => {
      const store = new TieredCacheStore(memory(), remote())
      t.same(store.health(), { redis: 'up', remote_failures: 0, pending_invalidations: 0 })
      t.equal(store.shared, true)
    })
  })

  t.test('a value another instance stored is found in Redis and kept locally for its remaining TTL', async (t) => {
    const a = new TieredCacheStore(memory(), remote())
    const bLocal = memory()
    const b = new TieredCacheStore(bLocal, remote())
    const stored = await a.set('shared', '{"from":"a"}', 30)
    t.equal(await bLocal.get('shared'), undefined, 'b has no local copy yet')
    const found = await b.get('shared')
    t.equal(found?.valueJson, '{"from":"a"}')
    const filled = await bLocal.get('shared')
    t.equal(filled?.valueJson, '{"from":"a"}', 'the local tier was filled')
    const drift = Math.abs((filled?.expiresAt.getTime() ?? 0) - stored.expiresAt.getTime())
    t.ok(drift < 50, `the fill keeps the remaining TTL (${drift} ms apart)`)
  })

  t.test('delete removes the entry from both tiers', async (t) => {
    const local = memory()
    const a = new TieredCacheStore(local, remote())
    const b = new TieredCacheStore(memory(), remote())
    await a.set('gone', '1', 60)
    t.equal(await a.delete('gone'), true)
    t.equal(await local.get('gone'), undefined)
    t.equal(await b.get('gone'), undefined, 'other instances no longer find it in Redis')
  })

  t.test('a value too large for the local tier is kept in Redis alone', async (t) => {
    const local = memory(1024)
    const store = new TieredCacheStore(local, remote())
    const value = JSON.stringify('z'.repeat(4096))
    const set = await store.set('big', value, 60)
    t.equal(set.valueJson, value)
    t.equal(await local.get('big'), undefined)
    t.equal((await store.get('big'))?.valueJson, value, 'served from Redis')
  })

  t.test('stats give each tier and the combined counts', async (t) => {
    const store = new TieredCacheStore(memory(), remote())
    await store.get('stats-miss')
    await store.set('stats-hit', '1', 60)
    await store.get('stats-hit')
    const stats = await store.stats()
    t.match(stats, { tier: 'tiered', hits: 1, misses: 1, hit_rate: 0.5, available: true })
    t.same(
      stats.tiers.map((s) => s.tier),
      ['memory', 'redis'],
    )
    t.match(stats.tiers[0], { hits: 1, misses: 1, available: true })
    t.match(stats.tiers[1], { misses: 1, available: true })
  })
}
