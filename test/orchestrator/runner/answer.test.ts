// The plain answer read from the guardian's scrubbed output, one arm output shape at a time.
import t from 'tap'
import { answerOf } from '../../../src/orchestrator/runner/answer.js'

t.test('one work step: its answer, whatever arm produced it', async (t) => {
  const scrub = (out: unknown) => ({ scrubbed: { s1: out }, redactions: 0, pii_types: [], withheld: 0 })
  t.equal(answerOf(scrub({ exit_code: 0, stdout: '3\n', stderr: '' })), '3\n', 'a command: its stdout')
  t.equal(answerOf(scrub({ result: 6765, console: [], duration_ms: 1 })), 6765, 'a script: its result')
  t.equal(answerOf(scrub({ result: null, console: ['hi'], duration_ms: 1 })), null, 'a script that returned nothing: null')
  t.equal(
    answerOf(scrub({ query: 'q', hits: [{ text: 'x' }], summary: 'Refunds in 30 days.' })),
    'Refunds in 30 days.',
    'a search: its summary',
  )
  t.same(answerOf(scrub({ query: 'q', hits: [{ text: 'x' }] })), [{ text: 'x' }], 'a search without a summary: its hits')
  t.equal(answerOf(scrub({ url: 'u', status: 200, body: '<p>', truncated: false })), '<p>', 'a fetch: its body')
  t.equal(answerOf(scrub({ language: 'javascript', code: 'f()', explanation: '' })), 'f()', 'code nothing ran: the code')
  t.same(answerOf(scrub({ anything: 1 })), { anything: 1 }, 'an unknown shape is its own answer')
})

t.test("a judge's verdict is not part of the answer", async (t) => {
  const final = { scrubbed: { s1: { result: 6765, console: [] }, s2: { passed: true, checks: [] } }, redactions: 0 }
  t.equal(answerOf(final), 6765)
  t.equal(answerOf({ scrubbed: { s2: { passed: true, checks: [] } } }), null, 'a verdict alone answers nothing')
})

t.test('several work steps: an answer per step id', async (t) => {
  const final = { scrubbed: { s1: { summary: 'a' }, s2: { exit_code: 0, stdout: 'b' } } }
  t.same(answerOf(final), { s1: 'a', s2: 'b' })
})

t.test("the guardian's text mode and plain values", async (t) => {
  t.equal(answerOf({ text: 'Mail [EMAIL_1]', redactions: 1, pii_types: ['EMAIL'] }), 'Mail [EMAIL_1]')
  t.equal(answerOf('plain'), 'plain')
  t.equal(answerOf(null), null)
  t.equal(answerOf(undefined), null)
})
