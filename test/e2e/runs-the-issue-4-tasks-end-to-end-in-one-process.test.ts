// The end-to-end tasks on `npm start` defaults: one process, PGlite, the arms in-process, the
// offline model. The split deployment test runs the same scenarios across separate processes.
import t from 'tap'
import { startGanglion } from './e2e-fixture.js'
import * as scenarios from './scenarios.js'

// Eight processes (or one with seven scenarios) on two cores: longer than .taprc's 120 s per file.
t.setTimeout(300_000)

t.test('on npm start defaults', async (t) => {
  const base = await startGanglion(t)
  t.test('"run `wc -l` on this text" runs wc in the sandbox and answers the count', (t) => scenarios.countsLinesWithWc(t, base))
  t.test('"compute the 20th Fibonacci number in JavaScript": coder writes, executor runs, 6765', (t) => scenarios.computesFibonacci(t, base))
  t.test('"redact the personal data in: …" answers with placeholders and logs the guardrail', (t) => scenarios.redactsPersonalData(t, base))
  t.test('"search the knowledge base for X and summarise" retrieves and summarises', (t) => scenarios.searchesAndSummarises(t, base))
  t.test('a task that tries curl fails with COMMAND_NOT_ALLOWED', (t) => scenarios.refusesCurl(t, base))
  t.test('a task that reads outside the sandbox fails without the content', (t) => scenarios.cannotReadOutsideTheSandbox(t, base))
  t.test('acceptance criteria are judged; a failed one re-plans once, then fails', (t) => scenarios.validatesAgainstAcceptanceCriteria(t, base))
})
