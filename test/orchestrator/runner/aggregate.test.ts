// The task result: the last step's output and every completed step's, partial unless all completed.
import t from 'tap'
import { aggregate } from '../../../src/orchestrator/runner/aggregate.js'
import type { StepStatus, TaskStep } from '../../../src/stores/task.js'

const step = (step_id: string, status: StepStatus, output: unknown = null): TaskStep => ({
  step_id,
  action: 'a',
  arm: 'executor',
  depends_on: [],
  status,
  attempts: 1,
  started_at: null,
  completed_at: null,
  output,
  error: null,
  tool: null,
  input: {},
  provenance: null,
})

t.test('a finished plan', async (t) => {
  t.same(aggregate([step('s1', 'completed', 1), step('s2', 'completed', { ok: true })]), {
    partial: false,
    answer: { ok: true },
    verdict: null,
    final: { ok: true },
    steps: { s1: 1, s2: { ok: true } },
    completed_steps: ['s1', 's2'],
  })
})

t.test('a stopped plan keeps what finished', async (t) => {
  t.same(aggregate([step('s1', 'completed', 'found'), step('s2', 'cancelled'), step('s3', 'cancelled')]), {
    partial: true,
    answer: null,
    verdict: null,
    final: null,
    steps: { s1: 'found' },
    completed_steps: ['s1'],
  })
  t.same(
    aggregate([]),
    { partial: false, answer: null, verdict: null, final: null, steps: {}, completed_steps: [] },
    'an empty plan is complete',
  )
})

t.test('steps a re-plan superseded are neither missing nor last', async (t) => {
  const result = aggregate([step('s1', 'completed', 'a'), step('s2', 'skipped'), step('r1-s2', 'completed', 'b')])
  t.equal(result.partial, false)
  t.equal(result.final, 'b')
})

t.test("a judged plan answers with the work's output and gives the verdict beside it", async (t) => {
  const verdict = { passed: true, checks: [{ criterion: 'the answer is 6765', passed: true }] }
  const steps = [
    step('s1', 'completed', { result: 6765, console: [] }),
    { ...step('s2', 'completed', verdict), arm: 'judge', depends_on: ['s1'] },
    { ...step('s3', 'completed', { scrubbed: { s2: verdict, s1: { result: 6765, console: [] } } }), arm: 'guardian' },
  ]
  const result = aggregate(steps)
  t.equal(result.answer, 6765, "the answer is the work's (scrubbed) output")
  t.same(result.verdict, verdict, 'the verdict stands beside it')
})
