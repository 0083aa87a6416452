import t from 'tap'
import { postJson, reflexUrl } from '../helpers/servers.js'

const text = 'Card 4111 1111 1111 1111, mail ada@example.com or bob@example.org'

t.test('POST /filter/pii redacts in each mode', async (t) => {
  const base = await reflexUrl(t)
  const placeholder = await (await postJson(`${base}/filter/pii`, { text })).json()
  t.equal(placeholder.mode, 'placeholder')
  t.equal(placeholder.pii_detected, true)
  t.match(placeholder.redacted_text, /\[CREDIT_CARD_1\].*\[EMAIL_1\].*\[EMAIL_2\]/)
  for (const m of placeholder.pii_matches) t.equal(text.slice(m.start, m.end), m.matched_text)

  const mask = await (await postJson(`${base}/filter/pii`, { text, mode: 'mask', keep_last: 4 })).json()
  t.match(mask.redacted_text, /\*{4}[- ]?\*{4}[- ]?\*{4}[- ]?1111/)

  const redact = await (await postJson(`${base}/filter/pii`, { text, mode: 'redact' })).json()
  t.match(redact.redacted_text, /\[REDACTED\]/)
  t.notMatch(redact.redacted_text, /example/)

  const hash = await (await postJson(`${base}/filter/pii`, { text, mode: 'hash' })).json()
  t.match(hash.redacted_text, /\[EMAIL:[0-9a-f]{12}\]/)

  const remove = await (await postJson(`${base}/filter/pii`, { text, mode: 'remove' })).json()
  t.notMatch(remove.redacted_text, /ada@|4111/)
})

t.test('POST /filter/pii refuses an unknown mode', async (t) => {
  const base = await reflexUrl(t)
  const res = await postJson(`${base}/filter/pii`, { text, mode: 'shred' })
  t.equal(res.status, 400)
  t.equal((await res.json()).error.details.field, 'mode')
})

t.test('POST /preprocess takes input or text and returns output', async (t) => {
  const base = await reflexUrl(t)
  const a = await (await postJson(`${base}/preprocess`, { input: 'mail ada@example.com' })).json()
  t.equal(a.output, 'mail [EMAIL_1]')
  t.equal(a.redacted_text, a.output)
  t.equal(a.status, 'success')
  const b = await (await postJson(`${base}/preprocess`, { text: 'mail ada@example.com' })).json()
  t.equal(b.output, 'mail [EMAIL_1]')
  const none = await postJson(`${base}/preprocess`, {})
  t.equal(none.status, 400)
  t.equal((await none.json()).error.details.field, 'input')
})
