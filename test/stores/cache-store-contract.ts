/**
 * The `CacheStore` contract, run against every adapter (undici's `cacheStoreTests(Store)` idea).
 *
 * ```ts
 * cacheStoreContract(t, async () => {
 *   const store = new MemoryCacheStore(new CacheTier({ maxBytes: CONTRACT_MAX_ENTRY_BYTES }))
 *   return { store, close: async () => {} }
 * })
 * ```
 *
 * `make` is called once per test and must return an empty store that refuses an entry larger than
 * `CONTRACT_MAX_ENTRY_BYTES` (and takes one of a few KiB). Keys are unique per test, so stores may
 * share a Redis namespace across tests.
 */

import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Test } from 'tap'
import { CACHE_ERRORS, type CacheStore } from '../../src/stores/cache-store.js'
import type { RedisConnection } from '../../src/stores/redis-client.js'

export const CONTRACT_MAX_ENTRY_BYTES = 64 * 1024 // 64 KiB

export interface StoreFixture<S> {
  store: S
  close: () => Promise<void>
}

export function cacheStoreContract(t: Test, make: () => Promise<StoreFixture<CacheStore>>): void {
  const open = async (t: Test): Promise<CacheStore> => {
    const { store, close } = await make()
    t.teardown(close)
    return store
  }
  const key = (name: string) => `${name}:${randomUUID()}`

  t.test('a stored value comes back byte for byte with its timestamps', async (t) => {
    const store = await open(t)
    const k = key('round-trip')
    const valueJson = '{"b": [1, 2.50], "s": "é \\u0000 ✓"}'
    const before = Date.now()
    const set = await store.set(k, valueJson, 60)
    t.equal(set.key, k)
    t.equal(set.valueJson, valueJson)
    t.ok(Math.abs(set.createdAt.getTime() - before) < 1000, 'createdAt is now')
    t.equal(set.expiresAt.getTime() - set.createdAt.getTime(), 60_000, 'expiresAt is createdAt + ttl')
    const got = await store.get(k)
    t.equal(got?.valueJson, valueJson)
    t.equal(got?.key, k)
    t.ok(got !== undefined && Math.abs(got.createdAt.getTime() - set.createdAt.getTime()) < 1000)
    const remaining = (got?.expiresAt.getTime() ?? 0) - Date.now()
    t.ok(remaining > 58_000 && remaining <= 60_000, `about 60 s remain (${remaining} ms)`)
  })

  t.test('a key never stored is undefined', async (t) => {
    const store = await open(t)
    t.equal(await store.get(key('missing')), undefined)
  })

  t.test('a second set replaces the value', async (t) => {
    const store = await open(t)
    const k = key('overwrite')
    await store.set(k, '"first"', 60)
    await store.set(k, '"second"', 60)
    t.equal((await store.get(k))?.valueJson, '"second"')
  })

  t.test('delete is true for a live entry, false after', async (t) => {
    const store = await open(t)
    const k = key('delete')
    await store.set(k, '1', 60)
    t.equal(await store.delete(k), true)
    t.equal(await store.get(k), undefined)
    t.equal(await store.delete(k), false)
    t.equal(await store.delete(key('never')), false)
  })

  t.test('an entry is gone once its TTL has passed', async (t) => {
    const store = await open(t)
    const k = key('ttl')
    const set = await store.set(k, '"short"', 1)
    t.equal((await store.get(k))?.valueJson, '"short"', 'live before the TTL')
    // Bounded wait: poll until it disappears, failing if it outlives its TTL by more than 1.5 s.
    const deadline = set.expiresAt.getTime() + 1500
    let gone = false
    while (Date.now() < deadline) {
      if ((await store.get(k)) === undefined) {
        gone = true
        break
      }
      await sleep(50)
    }
    t.ok(gone, 'expired within the bound')
    t.ok(Date.now() >= set.createdAt.getTime() + 900, 'not before its TTL')
    t.equal(await store.delete(k), false, 'an expired entry is not deleted')
  })

  t.test('a TTL that is not > 0 is refused', async (t) => {
    const store = await open(t)
    for (const ttl of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      await t.rejects(store.set(key('bad-ttl'), '1', ttl), { code: CACHE_ERRORS.invalidTtl }, `ttl ${ttl}`)
    }
  })

  t.test('an entry larger than the store takes is refused and drops the older value', async (t) => {
    const store = await open(t)
    const k = key('large')
    await store.set(k, '"small"', 60)
    const big = JSON.stringify('x'.repeat(CONTRACT_MAX_ENTRY_BYTES + 1024))
    await t.rejects(store.set(k, big, 60), { code: CACHE_ERRORS.valueTooLarge })
    t.equal(await store.get(k), undefined, 'no stale value answers after a refused replace')
    const fits = JSON.stringify('y'.repeat(4096))
    t.equal((await store.set(k, fits, 60)).valueJson, fits, 'a few KiB still fit')
  })

  t.test('unicode keys are distinct and exact', async (t) => {
    const store = await open(t)
    const base = randomUUID()
    const keys = [`ключ 🔑 キー ${base}`, `cle\u0301 ${base}`, `clé ${base}`, `a:b/c?d=e ${base}`]
    for (const [i, k] of keys.entries()) await store.set(k, String(i), 60)
    for (const [i, k] of keys.entries()) t.equal((await store.get(k))?.valueJson, String(i), k)
  })

  t.test('stats count hits and misses', async (t) => {
    const store = await open(t)
    const k = key('stats')
    const before = await store.stats()
    await store.get(k)
    await store.set(k, '{"n":1}', 60)
    await store.get(k)
    await store.get(k)
    const after = await store.stats()
    t.equal(after.hits - before.hits, 2, 'two hits')
    t.equal(after.misses - before.misses, 1, 'one miss')
    t.ok(after.hit_rate > 0 && after.hit_rate <= 1, 'hit_rate in (0, 1]')
    t.ok(after.entries >= 1, 'the entry is counted')
    t.equal(after.available, true)
    t.ok(['memory', 'redis', 'tiered'].includes(after.tier))
  })
}

/** A key prefix of its own for each test file and process: CI runs files in parallel on one Redis. */
export function redisTestPrefix(file: string): string {
  return `ganglion-test:${file}:${process.pid}:${randomUUID().slice(0, 8)}:`
}

/** Deletes every key under `prefix` (SCAN is fine in a teardown, never on a request path). */
export async function dropRedisPrefix(redis: RedisConnection, prefix: string): Promise<void> {
  const client = redis.client
  if (client.status !== 'ready') return
  let cursor = '0'
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500)
    if (keys.length > 0) await client.unlink(...keys)
    cursor = next
  } while (cursor !== '0')
}
