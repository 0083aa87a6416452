// A task with acceptance criteria answers with the work's output, scrubbed, and the judge's verdict
// beside it (`result.verdict`), not with the verdict alone: before, the final scrub depended on the
// judge only, the scrubbed aggregate held nothing but the verdict, and every judged task answered
// `result.answer: null`. The whole service on the offline model, over PGlite and PostgreSQL.
import t, { type Test } from 'tap'
import { freshDatabase, SKIP_PG } from '../stores/pg-schema.js'
import { armsOf, runTask, startGanglion } from './e2e-fixture.js'

t.setTimeout(300_000)

async function judged(t: Test, base: string): Promise<void> {
  const task = await runTask(base, {
    goal: 'Compute the 20th Fibonacci number',
    acceptance_criteria: ['the answer is 6765'],
  })
  t.equal(task.status, 'completed', JSON.stringify(task.error))
  t.same(armsOf(task), ['coder/generate', 'executor/javascript', 'judge/validate', 'guardian/scrub'])
  const [, run, judge, scrub] = task.plan.steps
  t.same(scrub.depends_on, [judge.step_id, run.step_id], 'the scrub reads the verdict and the work it judged')
  t.equal(task.result.answer, 6765, "the answer is the work's output")
  t.match(task.result.verdict, { passed: true, checks: [{ passed: true }] }, 'the verdict stands beside it')

  const plain = await runTask(base, { goal: 'Compute the 20th Fibonacci number' })
  t.equal(plain.result.answer, 6765)
  t.equal(plain.result.verdict, null, 'no judge, no verdict')
}

t.test('on PGlite', async (t) => {
  await judged(t, await startGanglion(t))
})

t.test('on PostgreSQL', { skip: SKIP_PG }, async (t) => {
  await judged(t, await startGanglion(t, { DATABASE_URL: await freshDatabase(t, 'ganglion_judged') }))
})
