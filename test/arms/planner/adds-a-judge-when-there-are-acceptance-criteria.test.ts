// Acceptance criteria (or a "check that …" in the goal) add a judge after the work and before the
// final scrub.
import t from 'tap'

import { outline, plan } from './planner-fixture.js'

t.test('acceptance criteria: judge.validate on the work steps', async (t) => {
  const { output } = await plan('Compute the 10th prime in JavaScript', { acceptance_criteria: ['the answer is 29'] })
  t.same(outline(output), ['s1 coder.generate', 's2 executor.javascript <- s1', 's3 judge.validate <- s2', 's4 guardian.scrub <- s3'])
  t.same(output.steps[2]!.input, {}, "the task's criteria reach the judge in its context")
})

t.test('"check that …" in the goal is a criterion for the judge, beside a knowledge-base answer', async (t) => {
  const { output } = await plan('Check whether the refund window is 30 days')
  t.same(outline(output), ['s1 retriever.search', 's2 judge.validate <- s1', 's3 guardian.scrub <- s2'])
  t.same(output.steps[1]!.input, { criteria: ['the refund window is 30 days'] })
})

t.test('no criteria, no judge', async (t) => {
  const { output } = await plan('Fetch https://example.com')
  t.notOk(output.steps.some((s) => s.arm === 'judge'))
})

t.test("the goal's criteria go with the task's, since criteria given to the judge replace them", async (t) => {
  const { output } = await plan('Fetch https://example.com and check that it has a title', { acceptance_criteria: ['mentions pricing'] })
  t.same(output.steps.find((s) => s.arm === 'judge')!.input, { criteria: ['it has a title', 'mentions pricing'] })
})
