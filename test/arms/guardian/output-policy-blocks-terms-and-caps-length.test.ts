import t from 'tap'

import type { ScrubDepsOutput, ScrubTextOutput } from '../../../src/arms/guardian/guardian-arm.js'
import { guard, guardError } from './guardian-fixture.js'

const constraints = { output_policy: { blocked_terms: ['Project Falcon', 'acme'], max_output_chars: 40 } }

t.test('blocked terms are replaced case-insensitively, as whole words only', async (t) => {
  const { output, events } = await guard<ScrubTextOutput>({
    tool: 'scrub',
    input: { text: 'PROJECT FALCON for Acme; acmeCorp stays' },
    constraints,
  })
  t.equal(output.text, '[blocked] for [blocked]; acmeCorp stays')
  t.same(events, [{ type: 'guardrail.policy', data: { blocked_terms: 2, truncated: 0 } }])
})

t.test('longer strings are cut with a marker; shorter ones and the structure stay', async (t) => {
  const long = 'x'.repeat(100)
  const { output, events } = await guard<ScrubDepsOutput>({ tool: 'scrub', deps: { s1: { stdout: long, stderr: 'short' } }, constraints })
  t.same(output.scrubbed, { s1: { stdout: `${'x'.repeat(40)}…[truncated: 60 more chars]`, stderr: 'short' } })
  t.match(events, [{ type: 'guardrail.policy', data: { blocked_terms: 0, truncated: 1 } }])
})

t.test('a cut never splits a character outside the basic plane', async (t) => {
  const { output } = await guard<ScrubTextOutput>({ tool: 'scrub', input: { text: `${'a'.repeat(39)}😀 tail` }, constraints })
  t.equal(output.text, `${'a'.repeat(39)}…[truncated: 7 more chars]`)
})

t.test('a policy that is not the documented shape is INPUT_INVALID; list constraints carry none', async (t) => {
  t.match(await guardError({ tool: 'scrub', input: { text: 'x' }, constraints: { output_policy: { blocked_terms: 'acme' } } }), {
    code: 'INPUT_INVALID',
    message: /constraints\.output_policy\.blocked_terms/,
  })
  t.match(await guardError({ tool: 'scrub', input: { text: 'x' }, constraints: { output_policy: { max_chars: 3 } } }), {
    code: 'INPUT_INVALID',
  })
  const { output } = await guard<ScrubTextOutput>({ tool: 'scrub', input: { text: 'acme' }, constraints: ['keep it short'] })
  t.equal(output.text, 'acme')
})
