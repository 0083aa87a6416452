// A goal with no recognised intent is answered from the knowledge base, and the action says so.
import t from 'tap'

import { outline, plan } from './planner-fixture.js'

t.test('a retriever search with the goal as query, summarised', async (t) => {
  const goal = 'What is our policy on refunds after 30 days?'
  const { output } = await plan(goal)
  t.same(outline(output), ['s1 retriever.search', 's2 guardian.scrub <- s1'])
  t.same(output.steps[0]!.input, { query: goal, summarise: true })
  t.match(output.steps[0]!.action, /knowledge base.*no specific tool was recognised/)
})

t.test('a goal longer than a query may be is cut to the first 2000 characters', async (t) => {
  const goal = `Tell me about ${'the history of the company '.repeat(120)}`
  const { output } = await plan(goal)
  t.equal((output.steps[0]!.input.query as string).length, 2000)
})
