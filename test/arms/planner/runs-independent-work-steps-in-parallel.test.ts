// Several intents in one goal are independent steps (no dependencies between them, so they run in
// parallel); the scrub waits for all of them.
import t from 'tap'

import { outline, plan } from './planner-fixture.js'

t.test('a fetch and a search, in the order asked, then one scrub', async (t) => {
  const { output } = await plan('Fetch https://example.com/prices.html, then search the knowledge base for pricing tiers and summarize')
  t.same(outline(output), ['s1 executor.http_fetch', 's2 retriever.search', 's3 guardian.scrub <- s1,s2'])
  t.same(output.steps[1]!.input, { query: 'pricing tiers', summarise: true })
})

t.test('code and a search: only the run waits for its code', async (t) => {
  const { output } = await plan('Search the knowledge base for the tax rate. Then compute 17% of 2400 in JavaScript')
  t.same(outline(output), ['s1 retriever.search', 's2 coder.generate', 's3 executor.javascript <- s2', 's4 guardian.scrub <- s1,s3'])
  t.same(output.steps[0]!.input, { query: 'the tax rate' })
  t.same(output.steps[1]!.input, { language: 'javascript', spec: 'compute 17% of 2400 in JavaScript' })
})
