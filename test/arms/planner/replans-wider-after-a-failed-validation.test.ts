// A heuristic re-plan (previous_failure set) keeps the work, searches wider (k 10) and recalls
// similar past tasks beside it, so the judge has more to go on the second time.
import t from 'tap'

import { outline, plan } from './planner-fixture.js'

t.test('same work, a wider search and a recall step in parallel', async (t) => {
  const goal = 'Search the knowledge base for the SLA of the premium plan'
  const opts = { acceptance_criteria: ['states an uptime percentage'] }
  const first = await plan(goal, opts)
  const again = await plan(goal, { ...opts, previous_failure: 'judge: no uptime percentage in the answer' })
  t.same(outline(first.output), ['s1 retriever.search', 's2 judge.validate <- s1', 's3 guardian.scrub <- s2'])
  t.same(outline(again.output), ['s1 retriever.search', 's2 retriever.recall', 's3 judge.validate <- s1,s2', 's4 guardian.scrub <- s3'])
  t.same(again.output.steps[0]!.input, { k: 10, query: 'the SLA of the premium plan' })
  t.same(again.output.steps[1]!.input, { goal, k: 3 })
})

t.test('without the retriever allowed the re-plan is the same plan', async (t) => {
  const opts = { constraints: { allowed_arms: ['executor'] } }
  const first = await plan('Fetch https://example.com', opts)
  const again = await plan('Fetch https://example.com', { ...opts, previous_failure: 'judge: empty page' })
  t.same(again.output.steps, first.output.steps)
})
