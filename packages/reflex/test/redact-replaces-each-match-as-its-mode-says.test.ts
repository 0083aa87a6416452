import { Detector } from '@ganglion/reflex'
import t from 'tap'

const text = 'a@x.com b@x.com a@x.com card 4111 1111 1111 1111 call +44 20 7946 0958 ip 10.0.0.1'

t.test('placeholders are numbered per type, and a repeated value keeps its number', async (t) => {
  const detector = new Detector()
  const result = detector.redact(text)
  t.equal(result.redacted_text, '[EMAIL_1] [EMAIL_2] [EMAIL_1] card [CREDIT_CARD_1] call [PHONE_1] ip [IP_ADDRESS_1]')
  t.equal(result.pii_detected, true)
  t.strictSame(
    result.pii_matches.map((m) => [m.type, m.matched_text]),
    [
      ['EMAIL', 'a@x.com'],
      ['EMAIL', 'b@x.com'],
      ['EMAIL', 'a@x.com'],
      ['CREDIT_CARD', '4111 1111 1111 1111'],
      ['PHONE', '+44 20 7946 0958'],
      ['IP_ADDRESS', '10.0.0.1'],
    ],
  )
  t.strictSame(detector.redact(text, { mode: 'placeholder' }), result, 'placeholder is the default')
  const checked = detector.check(text)
  t.equal(checked.redacted_text, result.redacted_text, "a check's redacted text is the placeholder redaction")
  t.strictSame(checked.pii_matches, result.pii_matches)
  t.strictSame(Object.keys(result), ['redacted_text', 'pii_detected', 'pii_matches'])
})

t.test('mask stars all but the last keepLast letters and digits, keeping separators', async (t) => {
  const detector = new Detector()
  const card = 'card 4111-1111-1111-1111 ok'
  t.equal(detector.redact(card, { mode: 'mask' }).redacted_text, 'card ****-****-****-1111 ok', 'four by default')
  t.equal(detector.redact(card, { mode: 'mask', keepLast: 0 }).redacted_text, 'card ****-****-****-**** ok')
  t.equal(detector.redact(card, { mode: 'mask', keepLast: 6 }).redacted_text, 'card ****-****-**11-1111 ok')
  t.equal(detector.redact('mail ada@example.com', { mode: 'mask', keepLast: 3 }).redacted_text, 'mail ***@*******.com')
  t.equal(detector.redact('ip 10.0.0.1', { mode: 'mask', keepLast: 99 }).redacted_text, 'ip 10.0.0.1', 'nothing to hide past the value')
})

t.test('redact writes [REDACTED] for each match, and remove writes nothing', async (t) => {
  const detector = new Detector()
  const redacted = detector.redact(text, { mode: 'redact' })
  t.equal(redacted.redacted_text, '[REDACTED] [REDACTED] [REDACTED] card [REDACTED] call [REDACTED] ip [REDACTED]')
  const removed = detector.redact(text, { mode: 'remove' })
  t.equal(removed.redacted_text, '   card  call  ip ')
  for (const result of [redacted, removed]) {
    t.equal(result.pii_matches.length, 6, 'the matches are reported with offsets into the original text')
    for (const m of result.pii_matches) t.equal(text.slice(m.start, m.end), m.matched_text)
  }
})

t.test('a text without personal data comes back as it is, in every mode', async (t) => {
  const detector = new Detector()
  const clean = 'Summarise the quarterly report 😀'
  for (const mode of ['placeholder', 'mask', 'redact', 'remove', 'hash'] as const) {
    t.strictSame(detector.redact(clean, { mode }), { redacted_text: clean, pii_detected: false, pii_matches: [] }, mode)
  }
})
