// The re-plan reason goes to the planner arm with personal data replaced by placeholders, as the
// goal does, and still within the arm's bound: a cut never splits an address or a card number
// (whose half the detector would no longer know), and placeholders longer than what they replace
// do not push it over.
import t from 'tap'
import { Value } from 'typebox/value'
import { MAX_PREVIOUS_FAILURE_CHARS, PlannerInput } from '../../../src/arms/planner/planner-input.js'
import { failureForPlanner } from '../../../src/orchestrator/runner/replan-reason.js'
import { testDetector } from '../../fixtures/runner-node.js'

const MAX = MAX_PREVIOUS_FAILURE_CHARS
const detector = testDetector()
const CARD = '4111 1111 1111 1111'
const EMAIL = 'ada.lovelace@example.com'

/** What is left of the text once its placeholders and cut markers are taken out. */
function raw(text: string): string {
  return text.replace(/\[[A-Z_]+_\d+\]/g, '').replace(/\[…\d+ characters cut…\]/g, '')
}

t.test('a judge message quoting an address and a card number', async (t) => {
  const reason = `1 of 1 checks failed: "says 42" (deterministic): is "mail ${EMAIL}, card ${CARD}"`
  t.equal(failureForPlanner(detector, reason), '1 of 1 checks failed: "says 42" (deterministic): is "mail [EMAIL_1], card [CREDIT_CARD_1]"')
  t.equal(failureForPlanner(detector, 'output lacks "42"'), 'output lacks "42"', 'nothing personal: as it is')
})

t.test('placeholders longer than what they replace still fit', async (t) => {
  // `a@b.io` (6 characters) becomes `[EMAIL_1]` (9): a reason just within the bound grows past it.
  const reason = 'a@b.io '.repeat(Math.floor(MAX / 7))
  t.ok(detector.redact(reason).redacted_text.length > MAX, 'redacted whole it would not fit')
  const sent = failureForPlanner(detector, reason)
  t.ok(sent.length <= MAX, `${sent.length} characters`)
  t.notMatch(sent, /a@b\.io/)
  t.ok(Value.Check(PlannerInput, { previous_failure: sent }))
})

t.test('a longer reason is cut where no personal data is split, at both cuts', async (t) => {
  // Every offset of the pattern against the cut points: some put a cut inside a card number or
  // an address, which the cut must then go around.
  for (const item of [`card ${CARD}; `, `mail ${EMAIL}; `]) {
    for (let lead = 0; lead < item.length; lead++) {
      const reason = `${'x'.repeat(lead)}${item.repeat(Math.ceil((3 * MAX) / item.length))}`
      const sent = failureForPlanner(detector, reason)
      t.ok(sent.length <= MAX, `${sent.length} characters`)
      t.notMatch(raw(sent), /\d{4}|@/, `no part of one is left (lead ${lead})`)
      t.match(sent, /\[…\d+ characters cut…\]/)
      t.ok(Value.Check(PlannerInput, { previous_failure: sent }))
    }
  }
})

t.test('the marker counts the characters cut from the reason', async (t) => {
  const head = '2 of 2 checks failed: '
  const tail = `; the last check quoted ${EMAIL}`
  const reason = `${head}${'quoted output line\n'.repeat(5000)}${tail}`
  const sent = failureForPlanner(detector, reason)
  t.ok(sent.startsWith(head) && sent.endsWith('; the last check quoted [EMAIL_1]'), 'head and tail, redacted')
  const marker = / \[…(\d+) characters cut…\] /.exec(sent)!
  const kept = sent.length - marker[0].length - '[EMAIL_1]'.length + EMAIL.length
  t.equal(kept + Number(marker[1]), reason.length, 'what was kept and what was cut make the reason')
})

t.test('dense personal data past the bound: cut twice, still within it', async (t) => {
  const sent = failureForPlanner(detector, 'a@b.io '.repeat(50_000))
  t.ok(sent.length <= MAX, `${sent.length} characters`)
  t.notMatch(sent, /a@b\.io/)
  t.ok(Value.Check(PlannerInput, { previous_failure: sent }))
})
