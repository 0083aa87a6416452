// constraints.allowed_arms limits the plan; the guardian is the system's own step and stays.
import t from 'tap'

import { outline, plan } from './planner-fixture.js'

t.test('an intent whose arm is excluded is PLAN_NOT_POSSIBLE, not a knowledge-base answer', async (t) => {
  await t.rejects(plan('Fetch https://example.com/report', { constraints: { allowed_arms: ['retriever'] } }), {
    code: 'PLAN_NOT_POSSIBLE',
    retryable: false,
    message: 'the goal asks for executor, which allowed_arms excludes',
  })
})

t.test('an excluded intent beside an allowed one leaves the allowed one', async (t) => {
  const { output } = await plan('Fetch https://example.com and search the knowledge base for pricing', {
    constraints: { allowed_arms: ['retriever'] },
  })
  t.same(outline(output), ['s1 retriever.search', 's2 guardian.scrub <- s1'])
})

t.test('a judge excluded is left out; the guardian is not', async (t) => {
  const { output } = await plan('Fetch https://example.com', {
    constraints: { allowed_arms: ['executor'] },
    acceptance_criteria: ['has a title'],
  })
  t.same(outline(output), ['s1 executor.http_fetch', 's2 guardian.scrub <- s1'])
})

t.test('code needs both the coder and the executor', async (t) => {
  await t.rejects(plan('Compute 2 to the power of 10 in JavaScript', { constraints: { allowed_arms: ['executor', 'retriever'] } }), {
    code: 'PLAN_NOT_POSSIBLE',
    message: /asks for coder, which allowed_arms excludes/,
  })
})

t.test('a question without the retriever is PLAN_NOT_POSSIBLE', async (t) => {
  await t.rejects(plan('What is the refund window?', { constraints: { allowed_arms: ['executor'] } }), { code: 'PLAN_NOT_POSSIBLE' })
})

t.test('nothing allowed that can do the work is PLAN_NOT_POSSIBLE', async (t) => {
  await t.rejects(plan('Fetch https://example.com', { constraints: { allowed_arms: ['judge'] } }), {
    code: 'PLAN_NOT_POSSIBLE',
    retryable: false,
  })
})
