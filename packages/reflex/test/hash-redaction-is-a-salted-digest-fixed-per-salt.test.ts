import { createHash } from 'node:crypto'
import { Detector } from '@ganglion/reflex'
import t from 'tap'

const text = 'mail ada@example.com, card 4111 1111 1111 1111, again ada@example.com'

/** `[TYPE:…]`: the first 12 hex digits of SHA-256 over the salt then the value. */
const digest = (type: string, salt: string, value: string) =>
  `[${type}:${createHash('sha256').update(salt).update(value).digest('hex').slice(0, 12)}]`

t.test('each match becomes its type and a digest of the salt and the value', async (t) => {
  const detector = new Detector()
  const salt = 'pepper-3f9'
  const { redacted_text } = detector.redact(text, { mode: 'hash', salt })
  const email = digest('EMAIL', salt, 'ada@example.com')
  t.equal(redacted_text, `mail ${email}, card ${digest('CREDIT_CARD', salt, '4111 1111 1111 1111')}, again ${email}`)
  t.notMatch(redacted_text, salt, 'the salt does not appear')
  t.notMatch(redacted_text, 'ada@example.com')
})

t.test('the digest is the same for one salt and different for another', async (t) => {
  const detector = new Detector()
  const a = detector.redact(text, { mode: 'hash', salt: 'one' }).redacted_text
  t.equal(detector.redact(text, { mode: 'hash', salt: 'one' }).redacted_text, a, 'deterministic')
  t.equal(new Detector().redact(text, { mode: 'hash', salt: 'one' }).redacted_text, a, 'from any detector')
  const b = detector.redact(text, { mode: 'hash', salt: 'two' }).redacted_text
  t.not(b, a)
  t.match(b, /^mail \[EMAIL:[0-9a-f]{12}\], card \[CREDIT_CARD:[0-9a-f]{12}\], again \[EMAIL:[0-9a-f]{12}\]$/)
  const unsalted = detector.redact(text, { mode: 'hash' }).redacted_text
  t.equal(unsalted, detector.redact(text, { mode: 'hash', salt: '' }).redacted_text, 'the default salt is empty')
  t.match(unsalted, digest('EMAIL', '', 'ada@example.com'))
})
