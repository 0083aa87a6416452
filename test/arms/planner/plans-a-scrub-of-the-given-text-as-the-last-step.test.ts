// "redact the personal data from: …" is the guardian's own work, and so the last step: no second
// guardian after it.
import t from 'tap'

import { outline, plan } from './planner-fixture.js'

t.test('one guardian scrub of the text after the colon', async (t) => {
  const { output } = await plan('Redact the personal data from: Call [PHONE_1] or mail [EMAIL_1].')
  t.same(outline(output), ['s1 guardian.scrub'])
  t.same(output.steps[0]!.input, { text: 'Call [PHONE_1] or mail [EMAIL_1].' })
})

t.test('with acceptance criteria the judge checks it and a final scrub follows the judge', async (t) => {
  const { output } = await plan('remove PII in this text: [EMAIL_1] wrote', { acceptance_criteria: ['no e-mail address is left'] })
  t.same(outline(output), ['s1 guardian.scrub', 's2 judge.validate <- s1', 's3 guardian.scrub <- s2'])
})
