// Which numbers a task computed itself (computed-values.ts): found in the output of a coder or
// javascript step fed by nothing from outside, and found nowhere in what came into the task.

import { Detector } from '@ganglion/reflex'
import t from 'tap'
import { computedValues } from '../../../src/orchestrator/runner/computed-values.js'
import type { TaskStep } from '../../../src/stores/task.js'
import { completedStep } from '../../fixtures/completed-step.js'

const FIB62 = 4052739537881
// Reports every match: a bare Luhn-valid number is below the default reporting threshold, and
// what is kept only matters for what a scrub would report.
const strict = new Detector({ piiThreshold: 0 })

const step = completedStep

const coder = step('s1', 'coder', 'generate', { language: 'javascript', code: 'fib(62)' })
const run = step('s2', 'executor', 'javascript', { result: FIB62, console: [], duration_ms: 3 }, ['s1'])
const guardian = step('s3', 'guardian', 'scrub', null, ['s1', 's2'])

function task(steps: TaskStep[], fields: Record<string, unknown> = {}) {
  return {
    goal: 'Compute the 62nd Fibonacci number',
    constraints: {},
    acceptance_criteria: [],
    context: null,
    metadata: {},
    ...fields,
    plan: { steps, source: 'heuristic' },
  } as unknown as Parameters<typeof computedValues>[1]
}

t.test('a number a script computed is kept', async (t) => {
  t.same(computedValues(strict, task([coder, run, guardian]), guardian), [String(FIB62)])
})

t.test('a number that came in is never kept, whatever its layout', async (t) => {
  for (const fields of [
    { goal: `Add 0 to ${FIB62}` },
    { goal: 'Echo 4052-7395-3788-1' },
    { acceptance_criteria: [`the answer is ${FIB62}`] },
    { constraints: { expected: String(FIB62) } },
    { context: { card: '4052 7395 3788 1' } },
    { metadata: { ref: FIB62 } },
  ]) {
    t.same(computedValues(strict, task([coder, run, guardian], fields), guardian), [], JSON.stringify(fields))
  }
})

t.test('a script fed by retrieved, fetched or command output computes nothing kept', async (t) => {
  for (const source of [
    step('s0', 'retriever', 'search', { hits: [{ text: 'card 4111 1111 1111 1111' }] }),
    step('s0', 'executor', 'http_fetch', { status: 200, body: 'card on file' }),
    step('s0', 'executor', 'shell', { stdout: 'x', exit_code: 0 }),
    step('s0', 'executor', null, { stdout: 'x', exit_code: 0 }),
    step('s0', 'my-arm', 'lookup', { anything: 1 }),
  ]) {
    const fed = step('s2', 'executor', 'javascript', { result: FIB62, console: [] }, ['s0'])
    const last = step('s3', 'guardian', 'scrub', null, ['s0', 's2'])
    t.same(computedValues(strict, task([source, fed, last]), last), [], `${source.arm}/${source.tool}`)
  }
})

t.test('a number another step returned is something that came in', async (t) => {
  const fetched = step('s4', 'executor', 'http_fetch', { status: 200, body: `total ${FIB62}` })
  const last = step('s3', 'guardian', 'scrub', null, ['s2', 's4'])
  t.same(computedValues(strict, task([coder, run, fetched, last]), last), [])
})

t.test('only numbers are kept: an address or a key a script printed is redacted', async (t) => {
  const printed = step(
    's2',
    'executor',
    'javascript',
    { result: 'ada@example.com', console: ['ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789'] },
    ['s1'],
  )
  t.same(computedValues(strict, task([coder, printed, guardian]), guardian), [])
})

t.test('only the guardian step’s own dependencies count', async (t) => {
  const other = step('s3', 'guardian', 'scrub', null, ['s1'])
  t.same(computedValues(strict, task([coder, run, other]), other), [])
})
