import { CacheTier } from '@ganglion/reflex'
import t from 'tap'

t.test('set stores a value that get returns with its creation and expiry', async (t) => {
  const cache = new CacheTier()
  const before = Date.now()
  const stored = cache.set('answer', '{"answer":42}', 60)
  const after = Date.now()
  t.equal(stored.key, 'answer')
  t.equal(stored.value, '{"answer":42}')
  t.ok(stored.createdAt instanceof Date && stored.expiresAt instanceof Date)
  t.ok(stored.createdAt.getTime() >= before && stored.createdAt.getTime() <= after, 'created now')
  t.equal(stored.expiresAt.getTime() - stored.createdAt.getTime(), 60_000, 'expires after the TTL')
  const found = cache.get('answer')!
  t.strictSame(Object.keys(found), ['key', 'value', 'createdAt', 'expiresAt'])
  t.equal(found.key, 'answer')
  t.equal(found.value, '{"answer":42}')
  t.ok(
    found.createdAt.getTime() >= stored.createdAt.getTime() && found.createdAt.getTime() <= Date.now(),
    "the tier's stamp is never earlier",
  )
  t.equal(found.expiresAt.getTime() - found.createdAt.getTime(), 60_000)
  t.equal(JSON.parse(found.value).answer, 42)
})

t.test('a lifetime in seconds is rounded to whole milliseconds', async (t) => {
  const cache = new CacheTier()
  for (const [ttlSeconds, ms] of [
    [1.5, 1500],
    [0.0016, 2],
    [0.0014, 1],
    [3600, 3_600_000],
  ] as const) {
    const stored = cache.set('k', '1', ttlSeconds)
    t.equal(stored.expiresAt.getTime() - stored.createdAt.getTime(), ms, `${ttlSeconds} s`)
    const found = cache.get('k')
    if (ms > 100) t.equal(found && found.expiresAt.getTime() - found.createdAt.getTime(), ms, `${ttlSeconds} s in the tier`)
  }
})

t.test('set replaces, delete removes, and each key is its own', async (t) => {
  const cache = new CacheTier()
  cache.set('a', '1', 60)
  cache.set('b', '2', 60)
  cache.set('a', '"one"', 60)
  t.equal(cache.get('a')?.value, '"one"', 'replaced')
  t.equal(cache.get('b')?.value, '2')
  t.match(cache.stats(), { entries: 2, bytes: 'a'.length + 5 + 'b'.length + 1 })
  t.equal(cache.delete('a'), true, 'a live entry was there')
  t.equal(cache.get('a'), undefined)
  t.equal(cache.delete('a'), false, 'nothing was there')
  t.equal(cache.delete('never'), false)
  t.equal(cache.get('b')?.value, '2')
  t.match(cache.stats(), { entries: 1, bytes: 2 })
  t.equal(cache.get('A'), undefined, 'keys are exact')
  cache.set('😀 é', '"x"', 60)
  t.equal(cache.get('😀 é')?.value, '"x"', 'any string is a key')
})
