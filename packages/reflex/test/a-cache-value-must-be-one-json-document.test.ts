import { CacheTier, REFLEX_ERRORS } from '@ganglion/reflex'
import t from 'tap'
import { show } from './fixtures/reflex.js'

const coded = { name: 'ReflexError', code: REFLEX_ERRORS.invalidValue }
const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`
const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`

t.test('a value that is not one JSON document is refused, and nothing is stored', async (t) => {
  const cache = new CacheTier()
  const notJson = ['', ' ', '{', '}', '[1,]', '{"a":1,}', '{a:1}', "'a'", '01', '1.', '+1', 'NaN', 'undefined', 'tru', '"a', '"\\x"']
  const notOne = ['1 2', '[1] [2]', '{} {}', '"a""b"', '\ufeff1', '1 //']
  const raw = ['"tab\there"', '"line\nbreak"']
  for (const value of [...notJson, ...notOne, ...raw]) t.throws(() => cache.set('k', value, 60), coded, show(value))
  t.strictSame(cache.stats(), { hits: 0, misses: 0, entries: 0, bytes: 0, evictions: 0, expirations: 0 })
})

t.test('nesting deeper than 256 is refused; 256 is taken', async (t) => {
  const cache = new CacheTier()
  t.ok(cache.set('arrays', arrays(256), 60))
  t.ok(cache.set('objects', objects(256), 60))
  t.throws(() => cache.set('arrays', arrays(257), 60), coded, '257 arrays')
  t.throws(() => cache.set('objects', objects(257), 60), coded, '257 objects')
  t.throws(() => cache.set('deep', arrays(1_000_000), 60), coded, 'a million arrays, refused without exhausting the stack')
  t.equal(cache.get('arrays')?.value, arrays(256), 'a refused value leaves the one before it')
  t.equal(cache.get('deep'), undefined)
})

t.test('every kind of JSON document is stored as its text', async (t) => {
  const cache = new CacheTier()
  const documents = [
    'null',
    'true',
    '0',
    '-1.5e3',
    '"text"',
    '"\\ud800"',
    '[]',
    '{}',
    ' {"a": [1, {"b": null}], "c": "😀\\n"} ',
    '"\u2028"',
  ]
  for (const [i, value] of documents.entries()) {
    cache.set(`k${i}`, value, 60)
    t.equal(cache.get(`k${i}`)?.value, value, show(value))
  }
})
