import { Detector } from '@ganglion/reflex'
import t from 'tap'
import { show } from './fixtures/reflex.js'

t.test('texts differing only in case, spacing or width share a key of 32 hex characters', async (t) => {
  const detector = new Detector()
  const variants = ['Hello World', 'hello world', 'HELLO   WORLD', '  hello\tworld\n', 'Hello\u00a0World', 'ＨＥＬＬＯ ｗｏｒｌｄ']
  const key = detector.cacheKey(variants[0]!)
  t.match(key, /^[0-9a-f]{32}$/)
  for (const text of variants) {
    t.equal(detector.cacheKey(text), key, `cacheKey(${show(text)})`)
    t.equal(detector.check(text).cache_key, key, `check(${show(text)}).cache_key`)
  }
})

t.test('a different text has a different key, from any detector', async (t) => {
  const detector = new Detector()
  t.not(detector.cacheKey('Hello World'), detector.cacheKey('Hello Worlds'))
  t.not(detector.cacheKey('hello world'), detector.cacheKey('helloworld'))
  t.equal(new Detector({ blockLevel: 'low' }).cacheKey('Hello World'), detector.cacheKey('hello world'), 'the key is no detector setting')
  const keys = new Set(Array.from({ length: 500 }, (_, i) => detector.cacheKey(`question number ${i}`)))
  t.equal(keys.size, 500, '500 texts, 500 keys')
})
