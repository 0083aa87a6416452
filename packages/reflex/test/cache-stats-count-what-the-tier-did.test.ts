import { CacheTier } from '@ganglion/reflex'
import t from 'tap'
import { sleep } from './fixtures/reflex.js'

t.test('hits, misses, entries, bytes, evictions and expirations follow each call', async (t) => {
  const cache = new CacheTier({ maxEntries: 2 })
  const zero = { hits: 0, misses: 0, entries: 0, bytes: 0, evictions: 0, expirations: 0 }
  t.strictSame(cache.stats(), zero)
  cache.get('k')
  t.strictSame(cache.stats(), { ...zero, misses: 1 }, 'a miss')
  cache.set('k', '"v"', 60)
  t.strictSame(cache.stats(), { ...zero, misses: 1, entries: 1, bytes: 4 }, 'set counts no lookup')
  cache.get('k')
  cache.get('k')
  t.strictSame(cache.stats(), { ...zero, hits: 2, misses: 1, entries: 1, bytes: 4 }, 'two hits')
  cache.set('short', '1', 0.005)
  t.strictSame(cache.stats(), { ...zero, hits: 2, misses: 1, entries: 2, bytes: 10 })
  await sleep(40)
  cache.get('short')
  t.strictSame(
    cache.stats(),
    { ...zero, hits: 2, misses: 2, entries: 1, bytes: 4, expirations: 1 },
    'an expired entry found is a miss and an expiration',
  )
  cache.set('x', '1', 60)
  cache.set('y', '2', 60)
  t.strictSame(
    cache.stats(),
    { ...zero, hits: 2, misses: 2, entries: 2, bytes: 4, expirations: 1, evictions: 1 },
    'k, the least recently used, made room',
  )
  cache.delete('x')
  t.strictSame(
    cache.stats(),
    { ...zero, hits: 2, misses: 2, entries: 1, bytes: 2, expirations: 1, evictions: 1 },
    'a delete counts nothing',
  )
})

t.test('an expired entry at the least recently used end is an expiration, not an eviction', async (t) => {
  const cache = new CacheTier({ maxEntries: 1 })
  cache.set('old', '1', 0.005)
  await sleep(40)
  cache.set('new', '2', 60)
  t.match(cache.stats(), { entries: 1, evictions: 0, expirations: 1 })
})

t.test('each tier counts its own', async (t) => {
  const a = new CacheTier()
  const b = new CacheTier()
  a.set('k', '1', 60)
  a.get('k')
  t.strictSame(b.stats(), { hits: 0, misses: 0, entries: 0, bytes: 0, evictions: 0, expirations: 0 })
  t.equal(b.get('k'), undefined, 'tiers share no entries')
})
