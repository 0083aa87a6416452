import t from 'tap'
import { ConfigError, loadConfig } from '../../src/config/load.js'

t.test('keeps the rate-limit buckets in the cache Redis unless RATE_LIMIT_REDIS_URL names their own', async (t) => {
  t.equal(loadConfig({}).rateLimitRedisUrl, undefined, 'no Redis at all: in-process buckets')
  t.equal(loadConfig({ REDIS_URL: 'redis://cache:6379' }).rateLimitRedisUrl, 'redis://cache:6379', 'REDIS_URL alone: one Redis for both')
  const both = loadConfig({ REDIS_URL: 'redis://cache:6379', RATE_LIMIT_REDIS_URL: 'redis://limits:6379' })
  t.equal(both.redisUrl, 'redis://cache:6379')
  t.equal(both.rateLimitRedisUrl, 'redis://limits:6379')
  const limitsOnly = loadConfig({ RATE_LIMIT_REDIS_URL: 'rediss://limits:6380/2' })
  t.equal(limitsOnly.redisUrl, undefined, 'the cache stays in-process')
  t.equal(limitsOnly.rateLimitRedisUrl, 'rediss://limits:6380/2', 'global limits without a shared cache')
  t.equal(
    loadConfig({ REDIS_URL: 'redis://cache:6379', RATE_LIMIT_REDIS_URL: '' }).rateLimitRedisUrl,
    'redis://cache:6379',
    'empty counts as unset',
  )
})

t.test('a RATE_LIMIT_REDIS_URL that is no Redis URL stops the start with the other problems', async (t) => {
  const err = t.throws(() => loadConfig({ REDIS_URL: 'redis://cache:6379', RATE_LIMIT_REDIS_URL: 'limits:6379', PORT: 'x' }))
  t.ok(err instanceof ConfigError)
  t.same([...(err as ConfigError).problems].sort(), [
    'PORT="x": must be an integer string',
    'RATE_LIMIT_REDIS_URL="limits:6379": must be a redis:// or rediss:// URL',
  ])
})
