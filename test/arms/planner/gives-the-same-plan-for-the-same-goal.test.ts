// The heuristic is deterministic: the same goal and input give the same plan, step for step.
import t from 'tap'

import { plan } from './planner-fixture.js'

t.test('twice the same plan', async (t) => {
  const goal = 'Search the knowledge base for deployment steps and summarise; run `wc -l` on this text: a\nb'
  const opts = { acceptance_criteria: ['mentions rollback'] }
  const [a, b] = await Promise.all([plan(goal, opts), plan(goal, opts)])
  t.same(a.output, b.output)
  t.equal(a.output.steps.length, 4)
})
