// A question no rule recognises is answered from the knowledge base, and only from its hits: the
// search step requires them (no hits fail it NO_KNOWLEDGE_MATCH instead of completing with nothing).
import t from 'tap'

import { outline, plan } from './planner-fixture.js'

t.test('a retriever search with the goal as query, summarised, hits required', async (t) => {
  const goal = 'What is our policy on refunds after 30 days?'
  const { output } = await plan(goal)
  t.same(outline(output), ['s1 retriever.search', 's2 guardian.scrub <- s1'])
  t.same(output.steps[0]!.input, { query: goal, summarise: true, require_hits: true })
  t.match(output.steps[0]!.action, /knowledge base.*no specific tool was recognised/)
})

t.test('questions without a question mark, and requests to tell or list what is known', async (t) => {
  for (const goal of ['How do I restart the worker', 'tell me about the refund policy', 'List the planets of the solar system']) {
    const { output } = await plan(goal)
    t.same(outline(output), ['s1 retriever.search', 's2 guardian.scrub <- s1'], goal)
    t.equal(output.steps[0]!.input.require_hits, true, goal)
  }
})

t.test('a goal longer than a query may be is cut to the first 2000 characters', async (t) => {
  const goal = `Tell me about ${'the history of the company '.repeat(120)}`
  const { output } = await plan(goal)
  t.equal((output.steps[0]!.input.query as string).length, 2000)
})

t.test('a search the goal asks for by name does not require hits: finding nothing is its result', async (t) => {
  const { output } = await plan('Search the knowledge base for pricing')
  t.equal(output.steps[0]!.input.require_hits, undefined)
})
