// "search / look up / find … the knowledge base for X [and summarise]" is one retriever search.
import t from 'tap'

import { outline, plan } from './planner-fixture.js'

t.test('the query is what follows "for", and summarise is asked for', async (t) => {
  const { output } = await plan('Search the knowledge base for the refund policy and summarise it.')
  t.equal(output.source, 'heuristic')
  t.same(outline(output), ['s1 retriever.search', 's2 guardian.scrub <- s1'])
  t.same(output.steps[0]!.input, { query: 'the refund policy', summarise: true })
  t.same(output.steps[1]!.input, {})
})

t.test('"look up X in the knowledge base" without a summary', async (t) => {
  const { output } = await plan('Look up the incident report of March 3 in our knowledge base')
  t.same(output.steps[0]!.input, { query: 'the incident report of March 3' })
})

t.test('"find … in the KB … summary" asks for a summary', async (t) => {
  const { output } = await plan('Find the onboarding checklist in the KB and give me a summary')
  t.same(output.steps[0]!.input, { query: 'the onboarding checklist', summarise: true })
})
