import t from 'tap'

import type { ScrubDepsOutput } from '../../../src/arms/guardian/guardian-arm.js'
import { guard } from './guardian-fixture.js'

t.test('no personal data, no injection, no policy: the same value, no events', async (t) => {
  const deps = {
    s1: { exit_code: 0, stdout: 'fib(20) = 6765\n', stderr: '', truncated: false, duration_ms: 7 },
    s2: { query: 'refunds', hits: [{ title: 'Policy', text: 'Refunds are paid within 14 days. Quote the order number, e.g. 1234.' }] },
    s3: {
      language: 'python',
      code: 'print(sum(range(10)))',
      explanation: 'Ignore the warning about the old interpreter; it is harmless.',
      source: 'model',
    },
  }
  const { output, events } = await guard<ScrubDepsOutput>({ tool: 'scrub', deps })
  t.same(output, { scrubbed: deps, redactions: 0, pii_types: [], withheld: 0 })
  t.same(events, [])
})
