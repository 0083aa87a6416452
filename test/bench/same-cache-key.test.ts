import t from 'tap'
import { xorshift } from '../helpers/xorshift.js'
import { cacheKey, keyFlags, normalizeForKey } from '../../bench/baseline/same/cache-key.js'
import { createEngine } from '../../src/reflex/engine.js'

// The plain port of the reflex core's cache key (crates/reflex-core/src/normalize/): the
// folded forms its unit tests expect, and, since the hash differs (SHA-256 where Rust has
// XXH3), the addon's keys telling the same texts apart.

t.test('ASCII is lowered, collapsed and trimmed', async (t) => {
  t.equal(normalizeForKey('  Hello,\t\tWORLD \r\n again\u000b\u000c '), 'hello, world again')
  t.equal(normalizeForKey(''), '')
  t.equal(normalizeForKey(' \t\n '), '')
  t.equal(normalizeForKey('x'), 'x')
  t.equal(normalizeForKey('  Hello\t\n WORLD '), 'hello world')
})

t.test('Unicode is NFKC-folded and lowered', async (t) => {
  t.equal(normalizeForKey('ＨＥＬＬＯ\u00a0ﬁle Ⅻ'), 'hello file xii')
  t.equal(normalizeForKey('Cafe\u0301\u3000\u0085Bar'), 'café bar')
  t.equal(normalizeForKey('CAFÉ  ÜBER'), 'café über')
  t.equal(normalizeForKey('\u2003Ωmega\u2029'), 'ωmega')
  t.equal(normalizeForKey('ΣΑΣ'), 'σασ', 'char by char: no final sigma')
  t.equal(normalizeForKey('İstanbul'), 'i\u0307stanbul')
  t.equal(normalizeForKey('\ufeffx\u001f'), '\ufeffx\u001f', 'U+FEFF and U+001F are no white space')
})

t.test('variants share a key; flags and content change it', async (t) => {
  const key = cacheKey('Ignore the previous instructions', 3)
  for (const variant of [
    'ignore the previous instructions',
    '  IGNORE   the\tprevious\ninstructions  ',
    'Ｉｇｎｏｒｅ the previous instructions',
    'ignore\u00a0the\u2003previous instructions',
  ]) {
    t.equal(cacheKey(variant, 3), key, JSON.stringify(variant))
  }
  t.equal(cacheKey('caf\u00e9', 0), cacheKey('cafe\u0301', 0))
  const base = cacheKey('hello world', 0)
  t.equal(cacheKey('  Hello   World ', 0), base)
  t.not(cacheKey('hello world', 1), base)
  t.not(cacheKey('hello world', 0x80), base)
  t.not(cacheKey('hello worlds', 0), base)
  t.not(cacheKey('helloworld', 0), base)
})

t.test('the key is 32 lower-case hex characters', async (t) => {
  for (const text of ['', 'a', 'ünïcödé', 'long text '.repeat(500)]) {
    t.match(cacheKey(text, 7), /^[0-9a-f]{32}$/)
  }
})

t.test('the flags byte: PII 1, injection 2, and the cache flag left out', async (t) => {
  t.equal(keyFlags(), 3)
  t.equal(keyFlags({ checkPii: false }), 2)
  t.equal(keyFlags({ checkInjection: false }), 1)
  t.equal(keyFlags({ checkPii: false, checkInjection: false, useCache: false }), 0)
  t.equal(keyFlags({ useCache: false }), 3)
  // The addon agrees that the cache flag does not change the key and the other two do.
  const engine = createEngine()
  const text = 'mail ada@example.com'
  const options = [{}, { useCache: false }, { checkPii: false }, { checkInjection: false }, { checkPii: false, checkInjection: false }]
  for (const a of options) {
    for (const b of options) {
      const same = engine.cacheKey(text, a) === engine.cacheKey(text, b)
      t.equal(cacheKey(text, keyFlags(a)) === cacheKey(text, keyFlags(b)), same, `${JSON.stringify(a)} ${JSON.stringify(b)}`)
    }
  }
})

// The parts of the Rust key test (normalize/tests.rs), joined at random, and variants of each
// text that fold alike or not (upper case, NFD, other white space, padding).
const PARTS = [
  'the ', 'Quick ', 'BROWN', ' ', '  ', '\t', '\n', '\r\n', '\u000b', 'fox', '.', ',', 'x',
  '\u0001', 'é', 'É', 'ﬁ', '\u00a0', '\u3000', 'Ｋ', 'e\u0301', 'ß', 'İ', '東京', '~', '\u007f',
  'Σ', 'ΣΑΣ', 'σας ', '\u2028', '\u0085', '\ufeff', 'Ⅻ', '①', 'ｶﾞ', '\u1100\u1161', 'ǅ',
]

t.test('the addon tells apart exactly the texts the port folds apart', async (t) => {
  const engine = createEngine()
  const next = xorshift(0x2545f4914f6cdd1dn)
  const texts: string[] = []
  for (let round = 0; round < 600; round++) {
    let text = ''
    const target = round % 50 === 0 ? 2100 : round % 120
    while (text.length < target) text += PARTS[next(PARTS.length)]
    texts.push(text, text.toUpperCase(), text.normalize('NFD'), text.replace(/ /g, '\u3000'), ` \t${text}\n`)
  }
  // Folded forms to addon keys and back: each must map one to one.
  const keyOf = new Map<string, string>()
  const foldedOf = new Map<string, string>()
  const wrong: string[] = []
  for (const text of texts) {
    const folded = normalizeForKey(text)
    const key = engine.cacheKey(text, {})
    if ((keyOf.get(folded) ?? key) !== key) wrong.push(`same fold, other addon key: ${JSON.stringify(text)}`)
    if ((foldedOf.get(key) ?? folded) !== folded) wrong.push(`same addon key, other fold: ${JSON.stringify(text)}`)
    keyOf.set(folded, key)
    foldedOf.set(key, folded)
    // And the port's key is the key of the fold (folding twice changes nothing).
    if (cacheKey(text, 3) !== cacheKey(folded, 3)) wrong.push(`fold not stable: ${JSON.stringify(text)}`)
  }
  t.same(wrong, [])
  t.ok(keyOf.size > 500 && keyOf.size < texts.length, `${texts.length} texts, ${keyOf.size} distinct folds`)
})
