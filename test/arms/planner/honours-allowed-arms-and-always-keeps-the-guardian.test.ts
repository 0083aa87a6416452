// constraints.allowed_arms limits the plan; the guardian is the system's own step and stays.
import t from 'tap'

import { outline, plan } from './planner-fixture.js'

t.test('an intent whose arm is excluded is answered from the knowledge base instead', async (t) => {
  const { output } = await plan('Fetch https://example.com/report', { constraints: { allowed_arms: ['retriever'] } })
  t.same(outline(output), ['s1 retriever.search', 's2 guardian.scrub <- s1'])
  t.match(output.steps[0]!.action, /not allowed/)
})

t.test('a judge excluded is left out; the guardian is not', async (t) => {
  const { output } = await plan('Fetch https://example.com', {
    constraints: { allowed_arms: ['executor'] },
    acceptance_criteria: ['has a title'],
  })
  t.same(outline(output), ['s1 executor.http_fetch', 's2 guardian.scrub <- s1'])
})

t.test('code needs both the coder and the executor', async (t) => {
  const { output } = await plan('Compute 2 to the power of 10 in JavaScript', { constraints: { allowed_arms: ['executor', 'retriever'] } })
  t.same(outline(output), ['s1 retriever.search', 's2 guardian.scrub <- s1'])
})

t.test('nothing allowed that can do the work is PLAN_NOT_POSSIBLE', async (t) => {
  await t.rejects(plan('Fetch https://example.com', { constraints: { allowed_arms: ['judge'] } }), {
    code: 'PLAN_NOT_POSSIBLE',
    retryable: false,
  })
})
