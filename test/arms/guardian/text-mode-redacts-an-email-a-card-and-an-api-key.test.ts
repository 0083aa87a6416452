import t from 'tap'

import type { ScrubTextOutput } from '../../../src/arms/guardian/guardian-arm.js'
import { API_KEY, CARD, EMAIL, guard } from './guardian-fixture.js'

const text = `Contact ${EMAIL}, card ${CARD}, token ${API_KEY}. Also ${EMAIL} again.`

t.test('placeholders, counted and typed; the same value keeps its placeholder', async (t) => {
  const { output } = await guard<ScrubTextOutput>({ tool: 'scrub', input: { text } })
  t.equal(output.text, 'Contact [EMAIL_1], card [CREDIT_CARD_1], token [API_KEY_1]. Also [EMAIL_1] again.')
  t.equal(output.redactions, 4)
  t.same(output.pii_types, ['API_KEY', 'CREDIT_CARD', 'EMAIL'])
})

t.test('mask and redact modes', async (t) => {
  const masked = await guard<ScrubTextOutput>({ tool: 'scrub', input: { text, mode: 'mask' } })
  t.notMatch(masked.output.text, EMAIL)
  t.match(masked.output.text, /\*{4} \*{4} \*{4} 1111/)
  const redacted = await guard<ScrubTextOutput>({ tool: 'scrub', input: { text, mode: 'redact' } })
  t.equal(redacted.output.text, 'Contact [REDACTED], card [REDACTED], token [REDACTED]. Also [REDACTED] again.')
})

t.test('an unknown mode or a non-string text is INPUT_INVALID', async (t) => {
  const { guardError } = await import('./guardian-fixture.js')
  t.match(await guardError({ tool: 'scrub', input: { text, mode: 'hash' } }), { code: 'INPUT_INVALID', message: /input\.mode/ })
  t.match(await guardError({ tool: 'scrub', input: { text: 42 } }), { code: 'INPUT_INVALID', message: /input\.text/ })
  t.match(await guardError({ tool: 'scrub', input: { txt: 'x' } }), { code: 'INPUT_INVALID' })
})
