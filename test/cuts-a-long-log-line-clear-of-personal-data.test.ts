// A long log line is cut before it is redacted (src/log-bound.ts): the cut must leave no part of a
// card number or an e-mail address where the redactor no longer recognises it.
import { Detector } from '@ganglion/reflex'
import t from 'tap'
import { createLogger } from '../src/log.js'
import { MAX_FIELD_CHARS, MAX_LINE_CHARS } from '../src/log-bound.js'

const detector = new Detector()
const redactor = {
  redact: (line: string) => detector.redact(line).redacted_text,
  find: (text: string) => detector.redact(text).pii_matches,
}
const normal = (text: string) => text.replace(/_\d+\]/g, '_N]')

for (const item of ['card 4111 1111 1111 1111; ', 'mail ada.lovelace@example.com; ']) {
  t.test(`no part of "${item.trim()}" is left out of the redaction, at every offset across the cut`, async (t) => {
    const lines: string[] = []
    const log = createLogger({ name: 'test', redactor, destination: { write: (line: string) => void lines.push(line) } })
    for (let lead = 0; lead < item.length; lead++) {
      const text = `${'x'.repeat(lead)}${item.repeat(Math.ceil(MAX_LINE_CHARS / item.length))}`
      log.warn({ output: text }, 'step failed')
      const line = lines.at(-1)!
      t.ok(line.length <= MAX_LINE_CHARS, `lead ${lead}: a ${line.length}-character line`)
      const output = (JSON.parse(line) as { output: string }).output
      t.ok(output.length <= MAX_FIELD_CHARS, `lead ${lead}: ${output.length} characters`)
      const [, head, cut] = /^([\s\S]*) \[…(\d+) characters cut…\]$/.exec(output) ?? []
      t.ok(head !== undefined, `lead ${lead}: cut, with a marker`)
      // What is kept is what redacting the whole text shows, up to the cut: each item whole, as a
      // placeholder, or not at all.
      const whole = normal(detector.redact(text).redacted_text)
      t.ok(whole.startsWith(normal(head!)), `lead ${lead}: the head is a prefix of the whole text redacted`)
      t.notMatch(head!.replace(/\[(CREDIT_CARD|EMAIL)_\d+\]/g, ''), /\d|@/, `lead ${lead}: no digit or @ of an item`)
      const kept = text.slice(0, text.length - Number(cut))
      t.equal(normal(detector.redact(kept).redacted_text), normal(head!), `lead ${lead}: the marker counts what went`)
    }
  })
}

t.test('a line its placeholders take past the bound is cut again', async (t) => {
  const lines: string[] = []
  const log = createLogger({ name: 'test', redactor, destination: { write: (line: string) => void lines.push(line) } })
  const mails = Array.from({ length: 3_000 }, (_, i) => `u${i}@b.io`).join(' ')
  t.ok(
    mails.length < MAX_LINE_CHARS - 200 && detector.redact(mails).redacted_text.length > MAX_LINE_CHARS,
    'under the bound until redacted',
  )
  log.warn({ mails }, 'many addresses')
  const line = lines[0]!
  t.ok(line.length <= MAX_LINE_CHARS, `a ${line.length}-character line`)
  const entry = JSON.parse(line) as { mails: string; msg: string }
  t.equal(entry.msg, 'many addresses')
  t.match(entry.mails, /^\[EMAIL_1\] \[EMAIL_2\] .* \[…\d+ characters cut…\]$/)
  t.notMatch(entry.mails, /@/, 'no address')
})
