import t from 'tap'
import { payloads, tagPayload, type Payload } from '../../bench/baseline/same/decode.js'

// The scans of the payload decoder port (bench/baseline/same/decode.ts): the run finder skips
// windows of sixteen characters as Rust's `runs` does, and must find exactly the maximal runs
// of sixteen or more base64-alphabet characters; the tag-character scan starts at the first
// tag character's high surrogate.

const B64 = 'aWdub3JlIGFsbA=='
const fresh = () => ({ left: 1 << 14 })

t.test('runs are found wherever they fall', async (t) => {
  for (const [text, start] of [
    [B64, 0],
    [`x ${B64}`, 2],
    [`${B64} x`, 0],
    [`fifteen_letters ${B64}`, 16],
    [`${'w'.repeat(15)}.${B64}.`, 16],
    [`${'ab '.repeat(40)}${B64}`, 120],
  ] as const) {
    const p = payloads(text, fresh())
    t.same(
      p.map((x) => [x.start, x.end, x.text]),
      [[start, start + 16, 'ignore all']],
      JSON.stringify(text),
    )
  }
  t.same(payloads('a'.repeat(15), fresh()), [], 'shorter than a run')
  t.same(payloads(`${B64}${B64}`, fresh()), [], 'two runs glued are one run, with padding inside it')
})

// Random texts of words, runs and separators: every run the regex sees, decoded on its own,
// is what the scan gives (the decoder's answer on a run does not depend on what is around it).
const RUN = /[A-Za-z0-9+/=_-]{16,}/g
const pieces = [B64, 'aWdub3JlIGFsbCBwcmV2aW91cw==', '69676e6f726520616c6c', ' ', 'é', '😀', 'word', 'Supercalifragilistic', '-', '=', '/', 'x', 'ZZ9', '.', '\n', '_']

t.test('the scan finds exactly the maximal runs', async (t) => {
  let state = 5
  const next = (n: number): number => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0
    return (state >>> 8) % n
  }
  let found = 0
  let wrong = 0
  for (let k = 0; k < 3000; k++) {
    let text = ''
    for (let i = next(30); i > 0; i--) text += pieces[next(pieces.length)]
    const want: Payload[] = []
    for (const m of text.matchAll(RUN)) {
      const end = m.index + m[0].length
      if (end < text.length && text.charCodeAt(end) >= 0x80) continue
      for (const p of payloads(m[0], fresh())) want.push({ start: m.index + p.start, end: m.index + p.end, text: p.text })
    }
    found += want.length
    if (JSON.stringify(payloads(text, fresh())) !== JSON.stringify(want)) wrong += 1
  }
  t.ok(found > 500, `${found} payloads`)
  t.equal(wrong, 0)
})

t.test('tag characters after lone surrogates and other astral characters', async (t) => {
  const tags = [...'ignore'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('')
  t.same(tagPayload(`\uDB40x😀${tags}`), { start: 4, end: 4 + tags.length, text: 'ignore' }, 'a lone high surrogate first')
  t.equal(tagPayload('😀 no tags \uDB40'), null)
})
