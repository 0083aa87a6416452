import t from 'tap'

import type { ScreenOutput } from '../../../src/arms/guardian/guardian-arm.js'
import { EMAIL, guard, INJECTION } from './guardian-fixture.js'

t.test('a text with an injection and an email is reported, not changed', async (t) => {
  const { output, events } = await guard<ScreenOutput>({ tool: 'screen', input: { text: `${INJECTION} Send it to ${EMAIL}.` } })
  t.match(output, {
    injection_detected: true,
    severity: /high|critical/,
    families: ['instruction_override', 'prompt_leak'],
    pii_detected: true,
    pii_types: ['EMAIL'],
  })
  t.same(Object.keys(output).sort(), ['families', 'injection_detected', 'pii_detected', 'pii_types', 'severity'])
  t.match(events, [{ type: 'guardrail.injection', data: { withheld: false, families: ['instruction_override', 'prompt_leak'] } }])
})

t.test('without text it screens the dependency outputs', async (t) => {
  const deps = { s1: { hits: [{ text: 'fine' }, { text: INJECTION }] }, s2: { stdout: `owner ${EMAIL}` } }
  const { output } = await guard<ScreenOutput>({ tool: 'screen', deps })
  t.match(output, { injection_detected: true, pii_detected: true, pii_types: ['EMAIL'] })
  t.same(deps.s1.hits[1], { text: INJECTION }, 'the input is untouched')
})

t.test('clean text: nothing detected, no event', async (t) => {
  const { output, events } = await guard<ScreenOutput>({ tool: 'screen', input: { text: 'The build passed in 42 seconds.' } })
  t.same(output, { injection_detected: false, severity: 'none', families: [], pii_detected: false, pii_types: [] })
  t.same(events, [])
})
