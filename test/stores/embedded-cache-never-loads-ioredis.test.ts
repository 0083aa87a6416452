/**
 * The embedded mode (no REDIS_URL) builds the cache and the limiter without loading ioredis:
 * redis-client.ts imports it lazily, inside `connectRedis`.
 */

import { createRequire } from 'node:module'
import { CacheTier, RateLimiter } from '@ganglion/reflex'
import t from 'tap'
import { MemoryCacheStore } from '../../src/stores/memory-cache-store.js'
import { MemoryRateLimitStore } from '../../src/stores/memory-rate-limit-store.js'
import { connectRedis } from '../../src/stores/redis-client.js'
import { TieredCacheStore } from '../../src/stores/tiered-cache-store.js'

// ESM imports of a CommonJS package such as ioredis go through the CommonJS loader and its cache.
const require = createRequire(import.meta.url)
const ioredisLoaded = () => Object.keys(require.cache).some((path) => path.includes('/node_modules/ioredis/'))

t.test('the cache and limiter work without ioredis being loaded', async (t) => {
  const cache = new TieredCacheStore(new MemoryCacheStore(new CacheTier()))
  const limits = new MemoryRateLimitStore(new RateLimiter())
  await cache.set('k', '1', 60)
  t.equal((await cache.get('k'))?.valueJson, '1')
  t.equal((await limits.take('ip', { capacity: 1, windowMs: 1000 })).allowed, true)
  t.equal(cache.health().redis, 'disabled')
  t.equal(ioredisLoaded(), false, 'ioredis was not loaded')
})

t.test('connectRedis is what loads it', async (t) => {
  // Port 1 on loopback: refused at once, no wait for the ready check.
  const redis = await connectRedis('redis://127.0.0.1:1', { connectTimeoutMs: 100 })
  t.teardown(() => redis.close())
  t.equal(ioredisLoaded(), true, 'the check above can see ioredis once it is loaded')
})
