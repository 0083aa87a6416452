// "fetch https://…" is one executor http_fetch step, the URL without trailing punctuation.
import t from 'tap'

import { outline, plan } from './planner-fixture.js'

t.test('the URL is the input', async (t) => {
  const { output } = await plan('Fetch https://example.com/status.json.')
  t.same(outline(output), ['s1 executor.http_fetch', 's2 guardian.scrub <- s1'])
  t.same(output.steps[0]!.input, { url: 'https://example.com/status.json' })
})
