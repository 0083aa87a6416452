// The built-in executor: the guardian really redacts personal data from its inputs, the other
// arms say honestly that no arm ran, and an aborted signal stops a step before it starts.
import t from 'tap'
import type { StoredTask, TaskStep } from '../../../src/stores/task.js'
import { BuiltinStepRunner } from '../../fixtures/builtin-step-runner.js'
import { testDetector } from '../../fixtures/runner-node.js'

const step = (arm: string): TaskStep => ({
  step_id: 's1',
  action: 'Act.',
  arm,
  depends_on: [],
  status: 'running',
  attempts: 1,
  started_at: null,
  completed_at: null,
  output: null,
  error: null,
  tool: null,
  input: {},
  provenance: null,
})
const input = (depOutputs: Record<string, unknown>) => ({ goal: 'g', task: {} as StoredTask, depOutputs })

t.test('the guardian redacts every string in its inputs and keeps their shape', async (t) => {
  const runner = new BuiltinStepRunner(testDetector())
  const { output } = await runner.run(
    step('guardian'),
    input({
      s1: { text: 'write to ada@example.com', list: ['call +44 20 7946 0958', 3], n: 1 },
    }),
    new AbortController().signal,
  )
  const scrubbed = (output as { scrubbed: { s1: { text: string; list: unknown[]; n: number } } }).scrubbed
  t.notMatch(JSON.stringify(output), /ada@example\.com/)
  t.match(scrubbed.s1.text, /\[EMAIL_1\]/)
  t.equal(scrubbed.s1.list[1], 3)
  t.equal(scrubbed.s1.n, 1)
})

t.test('other arms return an honest record', async (t) => {
  const { output } = await new BuiltinStepRunner(testDetector()).run(step('coder'), input({}), new AbortController().signal)
  t.same(output, { arm: 'coder', action: 'Act.', note: 'built-in step runner: no arm was called' })
})

t.test('honours an aborted signal', async (t) => {
  const controller = new AbortController()
  controller.abort(new Error('stop'))
  await t.rejects(new BuiltinStepRunner(testDetector()).run(step('executor'), input({}), controller.signal), { message: 'stop' })
})
