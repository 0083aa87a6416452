// The Prometheus cache counters (ganglion_cache_requests_total{tier,result},
// ganglion_cache_evictions_total{tier}) follow what each tier of the tiered store did: a lookup
// the in-process tier misses goes on to Redis and is counted there too, a hit in either tier is a
// hit of that tier, and an entry the in-process tier drops to stay within its bound is an eviction.
// Redis is the real server (REDIS_URL).
import { CacheTier, Detector } from '@ganglion/reflex'
import t from 'tap'
import { Metrics } from '../../src/metrics.js'
import { MemoryCacheStore } from '../../src/stores/memory-cache-store.js'
import { RedisCacheStore } from '../../src/stores/redis-cache-store.js'
import { connectRedis } from '../../src/stores/redis-client.js'
import { TieredCacheStore } from '../../src/stores/tiered-cache-store.js'
import { dropRedisPrefix, redisTestPrefix } from './cache-store-contract.js'

async function counters(metrics: Metrics): Promise<Record<string, number>> {
  const { body } = await metrics.text()
  const out: Record<string, number> = {}
  for (const line of body.split('\n')) {
    const m = /^(ganglion_cache_(?:requests|evictions)_total\{[^}]*\}) (\d+)$/.exec(line)
    if (m) out[m[1]!] = Number(m[2])
  }
  return out
}

const hit = (tier: string) => `ganglion_cache_requests_total{tier="${tier}",result="hit"}`
const miss = (tier: string) => `ganglion_cache_requests_total{tier="${tier}",result="miss"}`
const evictions = (tier: string) => `ganglion_cache_evictions_total{tier="${tier}"}`

t.test('the in-process tier alone: hits, misses and LRU evictions', async (t) => {
  const cacheTier = new CacheTier({ maxEntries: 2 })
  const cache = new TieredCacheStore(new MemoryCacheStore(cacheTier))
  const metrics = new Metrics({ detector: new Detector(), cacheTier, cache })
  t.same(await counters(metrics), { [hit('memory')]: 0, [miss('memory')]: 0, [evictions('memory')]: 0 }, 'all zero at start')

  t.equal(await cache.get('a'), undefined)
  await cache.set('a', '1', 60)
  t.ok(await cache.get('a'))
  await cache.set('b', '2', 60)
  await cache.set('c', '3', 60) // the third entry pushes the least recently used out
  const now = await counters(metrics)
  t.equal(now[evictions('memory')], 1, 'one entry evicted to keep two')
  t.ok(now[hit('memory')]! >= 1)
  t.equal(now[miss('memory')], 1, 'the one lookup before the set missed')
  t.notOk(
    Object.keys(now).some((k) => k.includes('redis')),
    'no Redis tier, no Redis series',
  )
})

const url = process.env.REDIS_URL
t.test('with Redis: a local miss is a Redis hit or miss, counted per tier', { skip: url ? false : 'REDIS_URL not set' }, async (t) => {
  const prefix = redisTestPrefix('cache-counters')
  const redis = await connectRedis(url!)
  t.teardown(async () => {
    await dropRedisPrefix(redis, prefix)
    await redis.close()
  })
  const shared = new RedisCacheStore(redis, { prefix })
  // Two processes' in-process tiers over one Redis: what one stores, the other finds there.
  const here = new TieredCacheStore(new MemoryCacheStore(new CacheTier({ maxEntries: 10 })), shared)
  const otherTier = new CacheTier({ maxEntries: 10 })
  const other = new TieredCacheStore(new MemoryCacheStore(otherTier), new RedisCacheStore(redis, { prefix }))
  const metrics = new Metrics({ detector: new Detector(), cacheTier: otherTier, cache: other })

  t.equal(await other.get('k'), undefined, 'nowhere yet')
  let c = await counters(metrics)
  t.equal(c[miss('memory')], 1)
  t.equal(c[miss('redis')], 1, 'the local miss asked Redis, which missed too')

  await here.set('k', '"v"', 60)
  t.ok(await other.get('k'), 'found in Redis')
  c = await counters(metrics)
  t.equal(c[miss('memory')], 2, 'not in this process yet')
  t.equal(c[hit('redis')], 1, 'a Redis hit')

  t.ok(await other.get('k'), 'now filled locally')
  c = await counters(metrics)
  t.equal(c[hit('memory')], 1, 'a local hit')
  t.equal(c[hit('redis')], 1, 'Redis not asked again')
  t.equal(c[evictions('redis')], 0, 'Redis evicts server-wide; nothing is reported for this store')
})
