import { Writable } from 'node:stream'
import { Detector } from '@ganglion/reflex'
import t from 'tap'
import { createLogger } from '../src/log.js'

t.test('log lines pass through the detector redaction, so personal data never reaches the logs', async (t) => {
  const detector = new Detector()
  const lines: string[] = []
  const destination = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk))
      done()
    },
  })
  const log = createLogger({
    name: 'test',
    redactor: { redact: (line) => detector.redact(line).redacted_text, find: (text) => detector.redact(text).pii_matches },
    destination,
  })
  log.info({ goal: 'mail ada@example.com about card 4111 1111 1111 1111' }, 'task accepted')
  await new Promise((r) => setImmediate(r))
  t.equal(lines.length, 1)
  const entry = JSON.parse(lines[0]!)
  t.equal(entry.goal, 'mail [EMAIL_1] about card [CREDIT_CARD_1]')
  t.equal(entry.msg, 'task accepted')
})
