import { CacheTier } from '@ganglion/reflex'
import t from 'tap'

const values = (cache: CacheTier, keys: string[]) => keys.map((k) => cache.get(k)?.value ?? null)

t.test('at maxEntries the least recently used entry goes, and a get makes an entry recent', async (t) => {
  const cache = new CacheTier({ maxEntries: 3 })
  cache.set('a', '1', 60)
  cache.set('b', '2', 60)
  cache.set('c', '3', 60)
  cache.get('a') // a is now more recent than b and c
  cache.set('d', '4', 60)
  t.match(cache.stats(), { entries: 3, evictions: 1 })
  t.equal(cache.get('b'), undefined, 'b, the least recently used, went')
  t.strictSame(values(cache, ['a', 'c', 'd']), ['1', '3', '4'])
  // The gets above made c then d the most recent: a goes next.
  cache.set('e', '5', 60)
  t.strictSame(values(cache, ['a', 'c', 'd', 'e']), [null, '3', '4', '5'])
  t.match(cache.stats(), { entries: 3, evictions: 2 })
})

t.test('replacing a value makes its entry recent', async (t) => {
  const cache = new CacheTier({ maxEntries: 2 })
  cache.set('a', '1', 60)
  cache.set('b', '2', 60)
  cache.set('a', '10', 60)
  cache.set('c', '3', 60)
  t.strictSame(values(cache, ['a', 'b', 'c']), ['10', null, '3'])
})

t.test('at maxBytes the least recently used entries go until the new one fits', async (t) => {
  const cache = new CacheTier({ maxBytes: 20 })
  for (const k of ['a', 'b', 'c', 'd', 'e']) cache.set(k, '100', 60) // 4 bytes each: 20
  t.match(cache.stats(), { entries: 5, bytes: 20, evictions: 0 })
  cache.get('a')
  cache.set('f', '"123456789"', 60) // 12 bytes: b, c and d make room
  t.strictSame(values(cache, ['a', 'b', 'c', 'd', 'e', 'f']), ['100', null, null, null, '100', '"123456789"'])
  t.match(cache.stats(), { entries: 3, bytes: 20, evictions: 3 })
})

t.test('a value grown in place makes room the same way', async (t) => {
  const cache = new CacheTier({ maxBytes: 12 })
  cache.set('a', '11', 60)
  cache.set('b', '22', 60)
  cache.set('c', '33', 60)
  cache.set('c', '"33333"', 60) // c grows from 3 to 8 bytes: a goes
  t.strictSame(values(cache, ['a', 'b', 'c']), [null, '22', '"33333"'])
  t.match(cache.stats(), { bytes: 11, evictions: 1 })
})
