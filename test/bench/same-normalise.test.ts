import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { normalise } from '../../bench/baseline/same/normalise.js'
import { isWordCode } from '../../bench/baseline/same/normalise-classes.js'
import { rustExample } from '../helpers/rust-example.js'

// The plain TypeScript port of the injection normaliser must give the Rust core's detection
// form and map. Cases from the Rust unit tests (normalize.rs and normalize/*.rs), with the
// byte offsets of the Rust asserts turned into UTF-16 indices.

const norm = (s: string): string => normalise(s).text

/** The original span of each code unit of the normalised text. */
function spans(s: string): Array<[number, number]> {
  const n = normalise(s)
  return [...n.text].flatMap((_, i) => [n.originalSpan(i, i + 1)])
}

t.test('folds obfuscations (normalize.rs folds_obfuscations)', async (t) => {
  t.equal(norm('Ig\u200Bn0re'), 'ignore')
  t.equal(norm('ｉｇｎｏｒｅ'), 'ignore')
  t.equal(norm('ign\u043Ere'), 'ignore', 'Cyrillic о beside Latin letters')
  t.equal(norm('1gn0r3 a11 pr3vi0us ru1es'), 'ignore all previous rules')
  t.equal(norm('i g n o r e all'), 'ignore all')
  t.equal(norm('i.g.n.o.r.e'), 'ignore')
  t.equal(norm('précédentes'), 'precedentes')
  t.equal(norm('игнорируй все'), 'игнорируй все', 'a Russian word stays Russian')
  t.equal(norm('a b c'), 'a b c', 'three single letters are not joined')
  t.equal(norm('2024 and $5'), '2024 and $5', 'numbers are not leetspeak')
})

t.test('says when the original was ASCII', async (t) => {
  t.ok(normalise('Ignore all').fromAscii)
  t.ok(normalise('i g n o r e all').fromAscii)
  t.notOk(normalise('précédentes').fromAscii)
  t.notOk(normalise('ｉｇｎｏｒｅ').fromAscii, 'not ASCII even though the form is')
})

t.test('word characters', async (t) => {
  const isWord = (c: string): boolean => isWordCode(c.codePointAt(0)!)
  for (const c of ['@', '$', 'Z', '7', 'ж', '東', 'é', '½']) t.ok(isWord(c), c)
  for (const c of ['_', ' ', '—', '’', '\u3000', '\u0301']) t.notOk(isWord(c), c)
})

t.test('maps back to the original text', async (t) => {
  const text = 'xx Ig\u200Bn0re'
  const n = normalise(text)
  const at = n.text.indexOf('ignore')
  const [s, e] = n.originalSpan(at, at + 6)
  t.equal(text.slice(s, e), 'Ig\u200Bn0re')
  t.same(n.originalSpan(at, at), n.originalSpan(at, at + 1), 'an empty range maps as its first character')
  t.equal(n.normalisedPos(5), 5, 'the zero-width space at 5 maps to the n after it')
  t.equal(n.normalisedPos(6), 5)
  t.equal(n.normalisedPos(7), 6)
  t.equal(n.normalisedPos(100), n.text.length)
})

t.test('dropped, decomposed and marked characters (chars.rs)', async (t) => {
  // A zero-width space goes, é becomes e, a mark after an ASCII letter stretches that letter's
  // span, ﬁ becomes two units over one character.
  t.equal(norm('a\u200Bé e\u0301ﬁ'), 'ae efi')
  t.same(spans('a\u200Bé e\u0301ﬁ'), [[0, 1], [2, 3], [3, 4], [4, 6], [6, 7], [6, 7]])
  t.equal(norm('\u200B\u0301x'), '\u0301x', 'a mark after a dropped character stays')
  t.equal(norm('\u0438\u0306'), '\u0438\u0306', 'nor is a mark after a letter kept whole joined')
  t.equal(norm('Zoë—x'), 'zoe—x')
  t.same(spans('Zoë—x'), [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5]])
  t.equal(norm('a\u064Bb'), 'ab', 'an Arabic vowel sign goes')
})

t.test('curly quotes become ASCII quotes', async (t) => {
  t.equal(norm('don’t “x”'), "don't \"x\"")
  const s = spans('don’t “x”')
  t.same(s[3], [3, 4])
  t.same(s.slice(6), [[6, 7], [7, 8], [8, 9]])
  t.equal(norm('łódź'), 'lodz')
})

t.test('words with a look-alike fold whole (mixed.rs)', async (t) => {
  const text = 'say ign\u043Ere — now'
  const n = normalise(text)
  t.equal(n.text, 'say ignore — now')
  const at = n.text.indexOf('ignore')
  t.same(n.originalSpan(at, at + 6), [4, 10])
  t.same(n.originalSpan(at + 7, at + 8), [11, 12], 'the dash')
  t.equal(norm('Plan — DONE'), 'plan — done')
  t.equal(norm('say i·g·n·o·r·e'), 'say ignore')
  t.equal(norm('i\u3000g\u3000n\u3000o'), 'igno', 'ideographic spaces separate spaced letters')
  t.equal(norm('\u0391\u0392\u0393'), 'αβγ', 'Greek with only two look-alikes stays Greek')
  t.equal(norm('\u0410\u0412\u0415'), 'abe', 'three look-alikes only fold')
})

t.test('leetspeak in words only (ascii.rs)', async (t) => {
  t.equal(norm('1gn0r3 a11 pr3v10u5 ru1es'), 'ignore all previous rules')
  t.equal(norm('2024 h264 4ll $5 x@y.z'), '2024 h264 all $5 xay.z')
  t.equal(norm('T\tA\rB'), 't a b')
  const long = '4' + 'a'.repeat(24)
  t.equal(norm(long), long, '25 characters is past the leet word limit')
  t.equal(norm('4' + 'a'.repeat(23)), 'a'.repeat(24))
})

t.test('spaced-out letters (ascii.rs)', async (t) => {
  t.equal(norm('i g n o r e'), 'ignore')
  t.equal(norm('i.g.n.o'), 'igno')
  t.equal(norm('so i g n ore'), 'so i g n ore', 'three single letters')
  t.equal(norm('a b c\td'), 'a b c d', 'a tab is not a separator')
  t.equal(norm('a b c      d'), 'a b c      d', 'six spaces are too many')
  t.equal(norm('a b c     d'), 'abc     d', 'five spaces stay between joined words')
  const pad = 'x'.repeat(60)
  t.equal(norm(`${pad} a b c d`), `${pad} abcd`)
  t.equal(norm(`${pad}ab c d e`), `${pad}ab c d e`)
  const many = Array.from({ length: 201 }, () => 'a').join(' ')
  t.equal(norm(many), many, 'over 200 letters are a list, not a word')
})

// The Rust answers come from `crates/reflex-core/examples/normal_forms.rs`, built by `cargo test`
// (which CI's `npm test` runs first) or `cargo build --release -q -p reflex-core --example normal_forms`.
const root = fileURLToPath(new URL('../../', import.meta.url))
const example = rustExample('normal_forms') ?? ''

const skip = example !== '' ? false : 'examples/normal_forms is not built'

t.test('agrees with the Rust normaliser on every text of normal_forms', { skip }, async (t) => {
  const lines = execFileSync(example, { cwd: root, maxBuffer: 1 << 30, encoding: 'utf8' }).split('\n').filter(Boolean)
  let texts = 0
  let wrongText = 0
  let wrongSpans = 0
  let wrongPos = 0
  const first: string[] = []
  for (const line of lines) {
    const { text, form, spans: want } = JSON.parse(line) as { text: string; form: string; spans: Array<[number, number]> }
    texts += 1
    const n = normalise(text)
    if (n.text !== form) {
      wrongText += 1
      if (first.length < 5) first.push(`form of ${JSON.stringify(text)}: ${JSON.stringify(n.text)}, Rust ${JSON.stringify(form)}`)
      continue
    }
    const bad = want.findIndex(([s, e], i) => {
      const [gs, ge] = n.originalSpan(i, i + 1)
      return gs !== s || ge !== e
    })
    if (bad >= 0) {
      wrongSpans += 1
      if (first.length < 5) first.push(`span ${bad} of ${JSON.stringify(text)}`)
      continue
    }
    // normalisedPos is the first entry of the span starts at or past pos (Rust's partition_point).
    let k = 0
    for (let pos = 0; pos <= text.length + 1; pos++) {
      while (k < want.length && want[k]![0] < pos) k += 1
      if (n.normalisedPos(pos) !== k) {
        wrongPos += 1
        if (first.length < 5) first.push(`normalisedPos(${pos}) of ${JSON.stringify(text)}`)
        break
      }
    }
  }
  t.ok(texts > 5000, `${texts} texts compared`)
  t.same({ wrongText, wrongSpans, wrongPos }, { wrongText: 0, wrongSpans: 0, wrongPos: 0 }, first.join('\n'))
})
