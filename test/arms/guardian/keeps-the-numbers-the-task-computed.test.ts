// A dependency scrub leaves the values the runner names in `keep` (the numbers the task computed
// itself) and redacts everything else as before, in every mode.
import t from 'tap'

import type { ScrubDepsOutput, ScrubTextOutput } from '../../../src/arms/guardian/guardian-arm.js'
import { CARD, EMAIL, guard, guardError, strictDetector } from './guardian-fixture.js'

// The 62nd Fibonacci number: Luhn-valid with a Visa prefix. Bare, it is below the default reporting
// threshold, so these scrubs use the strict detector, which reports it: `keep` is what decides.
const FIB62 = 4052739537881

t.test('a kept number stays, as a JSON number and inside text', async (t) => {
  const deps = { s2: { result: FIB62, console: [`fib(62) = ${FIB62}`], duration_ms: 3 } }
  const { output, events } = await guard<ScrubDepsOutput>({
    tool: 'scrub',
    detector: strictDetector,
    input: { keep: [String(FIB62)] },
    deps,
  })
  t.same(output.scrubbed, deps)
  t.equal(output.redactions, 0)
  t.same(events, [], 'nothing redacted, nothing reported')
})

t.test('without keep the same number is redacted as before', async (t) => {
  const { output } = await guard<ScrubDepsOutput>({
    tool: 'scrub',
    detector: strictDetector,
    deps: { s2: { result: FIB62, console: [], duration_ms: 3 } },
  })
  t.same(output.scrubbed, { s2: { result: '[CREDIT_CARD_1]', console: [], duration_ms: 3 } })
})

t.test('only the kept value stays: other data in the same string is redacted', async (t) => {
  const deps = { s1: { stdout: `${FIB62} paid by ${EMAIL} with ${CARD}`, exit_code: 0 } }
  for (const [mode, want] of [
    ['placeholder', `${FIB62} paid by [EMAIL_1] with [CREDIT_CARD_1]`],
    ['redact', `${FIB62} paid by [REDACTED] with [REDACTED]`],
    ['mask', `${FIB62} paid by ***.********@******e.com with **** **** **** 1111`],
  ] as const) {
    const { output } = await guard<ScrubDepsOutput>({
      tool: 'scrub',
      detector: strictDetector,
      input: { keep: [String(FIB62)], mode },
      deps,
    })
    t.same(output.scrubbed, { s1: { stdout: want, exit_code: 0 } }, mode)
    t.equal(output.redactions, 2, mode)
  }
  // The mask of what is not kept is the detector's own.
  const { output } = await guard<ScrubDepsOutput>({ tool: 'scrub', detector: strictDetector, input: { mode: 'mask' }, deps })
  t.match(output.scrubbed, { s1: { stdout: / paid by \*{3}\.\*{8}@\*{6}e\.com with \*{4} \*{4} \*{4} 1111$/ } })
})

t.test('a kept value is matched whole, not as a part of another', async (t) => {
  const { output } = await guard<ScrubTextOutput>({ tool: 'scrub', input: { text: `card ${CARD}`, keep: ['4111'] } })
  t.equal(output.text, 'card [CREDIT_CARD_1]')
})

t.test('keep is bounded like any input', async (t) => {
  const err = await guardError({ tool: 'scrub', input: { keep: Array.from({ length: 201 }, (_, i) => String(i)) } })
  t.equal(err.code, 'INPUT_INVALID')
})
