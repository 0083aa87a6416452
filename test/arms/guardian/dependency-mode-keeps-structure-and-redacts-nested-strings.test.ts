import t from 'tap'

import type { ScrubDepsOutput } from '../../../src/arms/guardian/guardian-arm.js'
import { API_KEY, CARD, EMAIL, guard, strictDetector } from './guardian-fixture.js'

const deps = {
  s1: { exit_code: 0, stdout: `owner: ${EMAIL}\n`, stderr: '', truncated: false, duration_ms: 9 },
  s2: { query: 'billing', hits: [{ title: 'Invoice', text: `Paid with ${CARD} by ${EMAIL}`, score: 0.82 }], summary: 'One invoice.' },
  s3: { result: { env: { GITHUB_TOKEN: API_KEY }, ids: [1, 2, 3], ok: true, none: null }, console: [], duration_ms: 2 },
  s4: { result: 4111111111111111, console: [], duration_ms: 1 },
}

// A bare run of digits is below the default reporting threshold; the strict detector reports it,
// so the JSON number's redaction is shown too.

t.test('every key, array, number, boolean and null stays; only the personal data changes', async (t) => {
  const { output, events } = await guard<ScrubDepsOutput>({ tool: 'scrub', deps, detector: strictDetector })
  t.same(output.scrubbed, {
    s1: { exit_code: 0, stdout: 'owner: [EMAIL_1]\n', stderr: '', truncated: false, duration_ms: 9 },
    s2: {
      query: 'billing',
      hits: [{ title: 'Invoice', text: 'Paid with [CREDIT_CARD_1] by [EMAIL_1]', score: 0.82 }],
      summary: 'One invoice.',
    },
    s3: { result: { env: { GITHUB_TOKEN: '[API_KEY_1]' }, ids: [1, 2, 3], ok: true, none: null }, console: [], duration_ms: 2 },
    s4: { result: '[CREDIT_CARD_2]', console: [], duration_ms: 1 },
  })
  t.equal(output.redactions, 5)
  t.equal(output.withheld, 0)
  t.same(output.pii_types, ['API_KEY', 'CREDIT_CARD', 'EMAIL'])
  t.same(JSON.parse(JSON.stringify(output)), output, 'valid JSON')
  t.same(events, [{ type: 'guardrail.pii_redacted', data: { count: 5, types: ['API_KEY', 'CREDIT_CARD', 'EMAIL'] } }])
})
