import { Detector } from '@ganglion/reflex'
import t from 'tap'
import { answered, body, endpointWith, show } from './fixtures/reflex.js'

const texts = [
  'nul \u0000 in the middle \u0000',
  `controls ${Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).join('')} \u007f \u0085 \u009f`,
  'quotes " \' ` and backslashes \\ \\\\ \\" \\u0041 \\n',
  'BMP: naïve café — 東京 Ωμέγα Привет ÿ \u00a0 \u2028 \u2029 \ufeff \ufffd \uffff',
  'astral: 😀 👩‍👩‍👧 🇬🇧 𝄞 𝐈𝐠𝐧 \u{10ffff} \u{1f600}\u{fe0f}',
  'RTL: \u200f\u202eعربي עברית\u202c\u200e \u2066isolate\u2069',
  'combining: e\u0301 a\u0308\u0323 \u0301 at the start',
  `${'é'.repeat(3000)}${'😀'.repeat(3000)}`,
]

t.test('a text where nothing is found comes back unchanged from check and redact', async (t) => {
  const detector = new Detector()
  for (const text of texts) {
    const checked = detector.check(text)
    t.match(checked, { pii_detected: false, injection_detected: false }, `nothing found in ${show(text)}`)
    t.equal(checked.redacted_text, text, `check keeps ${show(text)}`)
    t.equal((await detector.checkAsync(text)).redacted_text, text, 'checkAsync keeps it')
    for (const mode of ['placeholder', 'mask', 'hash'] as const)
      t.equal(detector.redact(text, { mode }).redacted_text, text, `redact (${mode}) keeps it`)
    t.equal((await detector.redactAsync(text)).redacted_text, text, 'redactAsync keeps it')
  }
})

t.test('around a match, every character is kept and the offsets hold', async (t) => {
  const detector = new Detector()
  for (const around of texts) {
    const text = `${around} ada@example.com ${around}`
    const { pii_matches, redacted_text } = detector.check(text)
    t.equal(pii_matches.length, 1, `one match in ${show(around)}`)
    const m = pii_matches[0]!
    t.equal(text.slice(m.start, m.end), 'ada@example.com')
    t.equal(redacted_text, `${text.slice(0, m.start)}[EMAIL_1]${text.slice(m.end)}`)
    t.equal(redacted_text, `${around} [EMAIL_1] ${around}`)
  }
})

t.test('the endpoint reads every such text from JSON and writes it back intact', async (t) => {
  const { ask } = endpointWith()
  for (const text of texts) {
    const reply = JSON.parse(answered(ask(body({ text, user_id: 'u1' }))).body.toString())
    t.equal(reply.redacted_text, text, show(text))
  }
})
