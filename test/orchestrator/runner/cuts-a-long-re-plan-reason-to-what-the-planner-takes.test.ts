// The runner's re-plan reason goes to the planner arm as `previous_failure`, which takes at most
// MAX_PREVIOUS_FAILURE_CHARS: a longer one keeps its head and its tail around a marker saying how
// much was cut, never splits a character, and always passes the planner's own schema.
import t from 'tap'
import { Value } from 'typebox/value'
import { MAX_PREVIOUS_FAILURE_CHARS, PlannerInput } from '../../../src/arms/planner/planner-input.js'
import { boundedFailure } from '../../../src/orchestrator/runner/replan-reason.js'

const MAX = MAX_PREVIOUS_FAILURE_CHARS
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

t.test('a reason within the bound goes as it is', async (t) => {
  t.equal(boundedFailure('output lacks "42"'), 'output lacks "42"')
  t.equal(boundedFailure(''), '')
  const full = 'x'.repeat(MAX)
  t.equal(boundedFailure(full), full)
})

t.test('a longer reason keeps its head and its tail and says how much was cut', async (t) => {
  const head = '3 of 3 checks failed: output lacks "42"; '
  const tail = '; the last check: exit code 1'
  const reason = `${head}${'quoted output line\n'.repeat(5000)}${tail}`
  const bounded = boundedFailure(reason)
  t.ok(bounded.length <= MAX, `${bounded.length} characters`)
  t.ok(bounded.length > MAX - 40, 'the room is used')
  t.ok(bounded.startsWith(head), 'the head: how many checks failed and the first reason')
  t.ok(bounded.endsWith(tail), 'the tail: how the last reason ends')
  const marker = / \[…(\d+) characters cut…\] /.exec(bounded)
  t.ok(marker, 'a marker says a cut was made')
  t.equal(bounded.length - marker![0].length + Number(marker![1]), reason.length, 'the marker counts exactly what was cut')
  const kept = bounded.split(marker![0])
  t.ok(kept[0]!.length > 2 * kept[1]!.length, 'more of the head than of the tail')
  t.ok(Value.Check(PlannerInput, { previous_failure: bounded }), "the planner's schema takes it")
})

t.test('a 5 MB reason is cut to the bound too', async (t) => {
  const bounded = boundedFailure('y'.repeat(5_000_000))
  t.ok(bounded.length <= MAX)
  t.match(bounded, /\[…4980\d{3} characters cut…\]/)
})

t.test('no surrogate pair is split at either end of the cut', async (t) => {
  // Odd and even offsets: wherever the cut lands, it lands between two whole characters.
  for (const lead of ['', 'a']) {
    const bounded = boundedFailure(`${lead}${'😀'.repeat(MAX)}`)
    t.ok(bounded.length <= MAX)
    t.notMatch(bounded, LONE_SURROGATE, `no lone surrogate (lead ${JSON.stringify(lead)})`)
    t.ok(Value.Check(PlannerInput, { previous_failure: bounded }))
  }
})
