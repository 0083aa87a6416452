import { CacheTier } from '@ganglion/reflex'
import t from 'tap'
import { sleep } from './fixtures/reflex.js'

t.test('an entry answers until its TTL passes, then never again', async (t) => {
  const cache = new CacheTier()
  const { expiresAt } = cache.set('short', '"soon gone"', 0.1)
  cache.set('long', '"stays"', 60)
  t.equal(cache.get('short')?.value, '"soon gone"', 'live before its TTL')
  await sleep(Math.max(0, expiresAt.getTime() - Date.now()) + 30)
  t.equal(cache.get('short'), undefined, 'gone after its TTL')
  t.equal(cache.get('long')?.value, '"stays"')
  t.match(cache.stats(), { entries: 1, expirations: 1, evictions: 0, bytes: 'long'.length + '"stays"'.length })
  t.equal(cache.get('short'), undefined, 'still gone')
})

t.test('an expired entry is no live entry to delete', async (t) => {
  const cache = new CacheTier()
  cache.set('k', '1', 0.005)
  t.equal(cache.stats().entries, 1)
  await sleep(40)
  t.equal(cache.stats().entries, 1, 'held until something finds it')
  t.equal(cache.delete('k'), false)
  t.match(cache.stats(), { entries: 0, bytes: 0, expirations: 1 })
})

t.test('setting a key again gives it a new lifetime', async (t) => {
  const cache = new CacheTier()
  cache.set('k', '1', 0.005)
  await sleep(40)
  cache.set('k', '2', 60)
  t.equal(cache.get('k')?.value, '2')
  t.match(cache.stats(), { entries: 1, expirations: 1 })
})
