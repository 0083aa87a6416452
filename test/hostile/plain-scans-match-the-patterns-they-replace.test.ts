// The scans in src/text-scan.ts (and the number reader in spec-values.ts) replace regular
// expressions with look-around, which the ReDoS check cannot analyse. Each is compared here with
// the pattern it replaced, on hand-picked texts and on many short random ones drawn from the
// characters the pattern cares about (a fixed seed, so a run repeats).
import t from 'tap'

import { numbersIn, subjectText } from '../../src/arms/coder/spec-values.js'
import { sentencesOf } from '../../src/llm/offline-provider.js'
import { quotedSpans, sentenceBreaks, trimEndOf } from '../../src/text-scan.js'

/** mulberry32: a small seeded generator. */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let x = Math.imul(a ^ (a >>> 15), 1 | a)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}

function texts(alphabet: string[], count: number, seed: number): string[] {
  const next = random(seed)
  const out: string[] = []
  for (let i = 0; i < count; i++) {
    const length = Math.floor(next() * 14)
    let text = ''
    for (let j = 0; j < length; j++) text += alphabet[Math.floor(next() * alphabet.length)]
    out.push(text)
  }
  return out
}

const spans = (text: string, re: RegExp) => [...text.matchAll(re)].map((m) => ({ index: m.index, length: m[0].length }))

t.test('trimming a trailing run is the look-behind replace', async (t) => {
  const cases: Array<[RegExp, string]> = [
    [/(?<!\/)\/+$/, '/'],
    [/(?<![.,;:!?)\]])[.,;:!?)\]]+$/, '.,;:!?)]'],
    [/(?<![.!;])[.!;]+$/u, '.!;'],
  ]
  for (const [re, chars] of cases) {
    const samples = [...texts(['a', '/', '.', ',', ')', ']', '!', ';', ' '], 500, 1), 'https://a.example///', '', '///']
    for (const text of samples) t.equal(trimEndOf(text, chars), text.replace(re, ''), `${re} on ${JSON.stringify(text)}`)
  }
})

t.test('sentence breaks are the look-behind sentence end', async (t) => {
  const OLD = /(?<=[.!?。！？]["')\]]{0,3})\s+/gu
  const samples = [
    ...texts(['a', '.', '!', '?', '。', '"', "'", ')', ']', ' ', '\n', '\t'], 2000, 2),
    'Hi. "Yes!"  Go',
    'a@b.com 3.5 ok.\n\nNext',
    'Wait!"\')] no.""""  x',
  ]
  for (const text of samples) t.same(sentenceBreaks(text, '.!?。！？'), spans(text, OLD), JSON.stringify(text))
})

t.test('the offline provider splits sentences as its look-behind pattern did', async (t) => {
  const OLD = /(?<=[.!?]["')\]]{0,3})\s+|\n+/u
  const old = (text: string) =>
    text
      .split(OLD)
      .map((s) => s.replace(/\s+/g, ' ').trim())
      .filter((s) => s !== '')
  const now = (text: string) =>
    sentencesOf(text)
      .map((s) => s.replace(/\s+/g, ' ').trim())
      .filter((s) => s !== '')
  for (const text of [...texts(['a', '.', '?', '"', ')', ' ', '\n', '\r'], 2000, 3), 'One. Two!\nThree\r\nfour "five."  six'])
    t.same(now(text), old(text), JSON.stringify(text))
})

t.test('quoted spans are the quote alternation', async (t) => {
  const KEPT = /"[^"]*"|“[^”“]*”|`[^`]*`|(?<![\w])'[^']*'(?![\w])|‘[^’‘]*’|:[\s\S]*$/g
  const QUOTED = /"([^"]*)"|“([^”“]*)”|`([^`]*)`|(?<![\w])'([^']*)'(?![\w])|‘([^’‘]*)’/
  const samples = [
    ...texts(['a', ' ', '"', '“', '”', '`', "'", '‘', '’', ':', '_'], 3000, 4),
    `say "hi" and 'bye'`,
    "don't 'quote' it's",
    'reverse “twenty one”: ‘x’',
  ]
  for (const text of samples) {
    const kept = quotedSpans(text, true).map(({ index, length }) => ({ index, length }))
    t.same(kept, spans(text, KEPT), `kept ${JSON.stringify(text)}`)
    const first = QUOTED.exec(text)
    const colon = text.indexOf(':')
    const afterColon = colon !== -1 && text.slice(colon + 1).trim() !== '' ? text.slice(colon + 1).trim() : null
    const expected = first ? (first.slice(1).find((g) => g !== undefined) ?? '') : afterColon
    t.equal(subjectText(text), expected, `subject ${JSON.stringify(text)}`)
  }
})

t.test('numbers are read as the look-around number pattern read them', async (t) => {
  const OLD = /(?<![\w.])-?\d{1,3}(?:,\d{3})+(?![\d.])|(?<![\w.])-?\d+(?:\.\d+)?(?:st|nd|rd|th)?\b/g
  const old = (spec: string) =>
    [...spec.matchAll(OLD)].map((m) => Number(m[0].replace(/(st|nd|rd|th)$/, '').replace(/,/g, ''))).filter(Number.isFinite)
  const samples = [
    ...texts(['1', '0', '5', ',', '.', '-', ' ', 's', 't', 'h', 'x', '_'], 5000, 5),
    ...texts(['1', '2', '0', ',', '.'], 2000, 6),
    'sort 5, -3 and 9.5',
    '1,000,000 and 1,0000 and 12,345.6 and 1.5th 20th 3rd. x4 4x 5,3,9',
  ]
  for (const text of samples) t.same(numbersIn(text), old(text), JSON.stringify(text))
})
