import { CacheTier, REFLEX_ERRORS } from '@ganglion/reflex'
import t from 'tap'

const coded = { name: 'ReflexError', code: REFLEX_ERRORS.valueTooLarge }

t.test('an entry larger than maxBytes is refused, and the older value under its key is gone', async (t) => {
  const cache = new CacheTier({ maxBytes: 20 })
  cache.set('k', '"old"', 60)
  cache.set('other', '1', 60)
  const big = `"${'x'.repeat(30)}"`
  t.throws(() => cache.set('k', big, 60), coded)
  t.equal(cache.get('k'), undefined, 'the stale value does not answer')
  t.equal(cache.get('other')?.value, '1', 'other entries stay')
  t.match(cache.stats(), { entries: 1, bytes: 'other'.length + 1, evictions: 0 })
  t.throws(() => cache.set('new', big, 60), coded, 'under a new key too')
  t.equal(cache.stats().entries, 1)
})

t.test('the bound counts the key and the value in UTF-8 bytes', async (t) => {
  const cache = new CacheTier({ maxBytes: 10 })
  t.ok(cache.set('kk', '"ééé"', 60), '2 + 8 bytes fit exactly')
  t.equal(cache.stats().bytes, 10)
  t.throws(() => cache.set('kk', '"éééé"', 60), coded, '2 + 10 bytes do not')
  t.throws(
    () => cache.set('kk', `{${'x'.repeat(20)}`, 60),
    { code: REFLEX_ERRORS.invalidValue },
    'a value too large and not JSON is not JSON',
  )
  t.throws(() => cache.set('k😀😀', '"ab"', 60), coded, '9 + 4 bytes do not')
})

t.test('a tier of no entries refuses every entry as too large', async (t) => {
  const cache = new CacheTier({ maxEntries: 0 })
  t.throws(() => cache.set('k', '1', 60), coded)
  t.equal(cache.get('k'), undefined)
})
