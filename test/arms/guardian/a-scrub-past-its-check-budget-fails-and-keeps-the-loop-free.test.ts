// The guardian's scans and output policy run within the call's check budget (CHECK_BUDGET_MS):
// 500 long blocked terms over a 1 MB output are found in one linear pass, well inside it; a budget
// too small for many strings fails the step with CHECK_BUDGET_EXCEEDED; and many strings are
// scrubbed with the loop answering between them.
import t from 'tap'
import type { ScrubDepsOutput } from '../../../src/arms/guardian/guardian-arm.js'
import { longestHold } from '../../helpers/event-loop-hold.js'
import { guard, guardError } from './guardian-fixture.js'

const TERMS = Array.from({ length: 500 }, (_, i) => `${'term'.repeat(45)}${i} x`)
const constraints = { output_policy: { blocked_terms: TERMS } }

t.test('500 long terms over a 1 MB output: found in one pass, the loop held a fraction of a second at most', async (t) => {
  let output: ScrubDepsOutput | undefined
  const held = await longestHold(async () => {
    output = (
      await guard<ScrubDepsOutput>({ tool: 'scrub', deps: { s1: { result: `${'word term '.repeat(100_000)}${TERMS[250]}` } }, constraints })
    ).output
  })
  const result = (output?.scrubbed as { s1: { result: string } } | undefined)?.s1.result ?? ''
  t.ok(result.endsWith('term [blocked]'), 'the one blocked term in the output is blocked')
  t.equal(result.length, 'word term '.repeat(100_000).length + '[blocked]'.length)
  t.ok(held < 1_000, `the event loop was held ${Math.round(held)} ms at most`)
})

t.test('many strings share one budget: a small one is spent, and says so', async (t) => {
  const strings = Array.from({ length: 400 }, (_, i) => `${'word term '.repeat(2_000)}${i}`)
  const err = await guardError({ tool: 'scrub', deps: { s1: { result: strings } }, constraints, checkBudgetMs: 50 })
  t.match(err, { code: 'CHECK_BUDGET_EXCEEDED', message: /ran past their 50 ms together/ })
})

t.test('within the budget the scrub completes, answering the loop between strings', async (t) => {
  const strings = Array.from({ length: 2_000 }, (_, i) => `row ${i}: mail ada.lovelace@example.com about the project`)
  let output: ScrubDepsOutput | undefined
  const held = await longestHold(async () => {
    output = (
      await guard<ScrubDepsOutput>({
        tool: 'scrub',
        deps: { s1: { rows: strings } },
        constraints: { output_policy: { blocked_terms: ['project'] } },
      })
    ).output
  })
  const rows = (output?.scrubbed as { s1: { rows: string[] } } | undefined)?.s1.rows ?? []
  t.equal(rows.length, 2_000)
  t.equal(rows[7], 'row 7: mail [EMAIL_1] about the [blocked]')
  t.ok(held < 1_000, `the event loop was held ${Math.round(held)} ms at most`)
})

// The detector reads U+FFFD (what NUL bytes in a command's output become) slowest, a quarter of a
// second a million characters: its scans run on libuv's pool, so the event loop answers meanwhile.
t.test('megabytes of the slowest text are scrubbed with the event loop free', async (t) => {
  const big = '\ufffd'.repeat(5_000_000)
  let output: ScrubDepsOutput | undefined
  const held = await longestHold(async () => {
    output = (await guard<ScrubDepsOutput>({ tool: 'scrub', deps: { s1: { stdout: big, stderr: big } }, checkBudgetMs: 60_000 })).output
  })
  t.equal((output?.scrubbed as { s1: { stdout: string } } | undefined)?.s1.stdout.length, big.length)
  t.ok(held < 1_000, `the event loop was held ${Math.round(held)} ms at most`)
})
