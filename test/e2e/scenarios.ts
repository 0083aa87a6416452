// The end-to-end tasks of the README's walkthrough, each a function of a running orchestrator's base URL, so the
// single-process test and the split deployment test run exactly the same checks.
import type { Test as T } from 'tap'
import { postJson } from '../helpers/servers.js'
import { armsOf, checkFullLog, eventsOf, outputOf, runTask } from './e2e-fixture.js'

export async function countsLinesWithWc(t: T, base: string): Promise<void> {
  const task = await runTask(base, { goal: 'Run `wc -l` on this text:\nalpha\nbeta\ngamma\n' })
  t.equal(task.status, 'completed', JSON.stringify(task.error))
  t.same(armsOf(task), ['executor/shell', 'guardian/scrub'])
  const shell = outputOf(task, 'executor/shell')
  t.equal(shell?.exit_code, 0)
  t.equal(shell?.stdout.trim(), '3')
  t.match(
    task.plan.steps[0].provenance,
    { arm: 'executor', tool: 'shell', model: null, token_id: String },
    'the result says who produced it',
  )
  t.equal(task.usage.arm_calls, 3, 'two step calls and the plan')
  t.equal(task.result.answer.trim(), '3', "the answer, read from the guardian's scrubbed output")
  checkFullLog(t, task, await eventsOf(base, task.task_id))
}

export async function computesFibonacci(t: T, base: string): Promise<void> {
  const task = await runTask(base, { goal: 'Compute the 20th Fibonacci number in JavaScript' })
  t.equal(task.status, 'completed', JSON.stringify(task.error))
  t.same(armsOf(task), ['coder/generate', 'executor/javascript', 'guardian/scrub'])
  const [coder, executor] = task.plan.steps
  t.same(executor.depends_on, [coder.step_id], 'the code runs after it is written')
  t.match(outputOf(task, 'coder/generate'), { language: 'javascript', code: String })
  t.equal(outputOf(task, 'executor/javascript')?.result, 6765)
  t.equal(task.result.answer, 6765, "the answer is the script's result")
  checkFullLog(t, task, await eventsOf(base, task.task_id))
}

export async function redactsPersonalData(t: T, base: string): Promise<void> {
  const task = await runTask(base, {
    goal: 'Redact the personal data in: Ada Lovelace, ada@example.com, card 4111 1111 1111 1111, lives in London.',
  })
  t.equal(task.status, 'completed', JSON.stringify(task.error))
  t.same(armsOf(task), ['guardian/scrub'])
  const answer = JSON.stringify(task.result)
  t.notMatch(answer, 'ada@example.com', 'no raw email in the result')
  t.notMatch(answer, '4111 1111 1111 1111', 'no raw card number in the result')
  t.match(answer, /\[EMAIL_1\]/)
  t.match(answer, /\[CREDIT_CARD_1\]/)
  t.match(task.result.answer, /^Ada Lovelace, \[EMAIL_1\], card \[CREDIT_CARD_1\]/, 'the answer is the redacted text')
  const events = await eventsOf(base, task.task_id)
  t.ok(
    events.find((e) => e.event === 'guardrail.pii_redacted'),
    'a guardrail event says what was redacted',
  )
  t.notMatch(
    JSON.stringify(events.filter((e) => e.event !== 'task.created')),
    'ada@example.com',
    'no event after the submission holds the email',
  )
  checkFullLog(t, task, events)
}

const POLICY = `Refund policy. Customers may return any item within 30 days of delivery for a full refund.
Refunds are paid to the original payment method within five business days of the return arriving.
Items bought in a sale can be exchanged but not refunded.`
const SHIPPING = 'Shipping. Parcels leave the warehouse every weekday at noon and arrive in two to four days.'

export async function searchesAndSummarises(t: T, base: string): Promise<void> {
  const ingest = await postJson(`${base}/api/v1/knowledge`, {
    documents: [
      { title: 'Refunds', text: POLICY },
      { title: 'Shipping', text: SHIPPING },
    ],
  })
  t.equal(ingest.status, 201)
  const task = await runTask(base, { goal: 'Search the knowledge base for the refund policy and summarise it' })
  t.equal(task.status, 'completed', JSON.stringify(task.error))
  t.same(armsOf(task), ['retriever/search', 'guardian/scrub'])
  const search = outputOf(task, 'retriever/search')
  t.equal(search?.hits[0]?.title, 'Refunds', 'the refund document ranks first')
  t.match(search?.summary, /refund/i, 'the summary is drawn from the hits')
  t.match(task.result.answer, /30 days/, 'the answer is the summary, carrying the policy')
  checkFullLog(t, task, await eventsOf(base, task.task_id))
}

export async function refusesCurl(t: T, base: string): Promise<void> {
  const task = await runTask(base, { goal: 'Run `curl http://example.com/` and show me the page' })
  t.equal(task.status, 'failed')
  t.match(task.error, { code: 'COMMAND_NOT_ALLOWED', retryable: false })
  t.equal(task.plan.steps[0].attempts, 1, 'a refusal is not retried')
}

export async function cannotReadOutsideTheSandbox(t: T, base: string): Promise<void> {
  const task = await runTask(base, { goal: 'Run `cat /etc/passwd`' })
  t.equal(task.status, 'failed')
  t.match(task.error, { code: 'COMMAND_FAILED' })
  t.notMatch(JSON.stringify(task), 'root:x:0:0', "the host's /etc/passwd never reached the record")
}

export async function validatesAgainstAcceptanceCriteria(t: T, base: string): Promise<void> {
  const goal = 'Compute the 20th Fibonacci number in JavaScript'
  const passed = await runTask(base, { goal, acceptance_criteria: ['the result is 6765'] })
  t.equal(passed.status, 'completed', JSON.stringify(passed.error))
  t.ok(armsOf(passed).includes('judge/validate'), 'a judge checks the criteria')
  t.equal(outputOf(passed, 'judge/validate')?.passed, true)

  const refused = await runTask(base, { goal, acceptance_criteria: ['the result is 6766'] })
  t.equal(refused.status, 'failed')
  t.match(refused.error, { code: 'VALIDATION_FAILED' })
  const events = await eventsOf(base, refused.task_id)
  t.equal(events.filter((e) => e.event === 'task.replanned').length, 1, 'a failed validation re-plans once, then fails')
}

/** Every scenario with its test name, in the order both deployments run them. */
export const SCENARIOS: ReadonlyArray<readonly [string, (t: T, base: string) => Promise<void>]> = [
  ['"run `wc -l` on this text" runs wc in the sandbox and answers the count', countsLinesWithWc],
  ['"compute the 20th Fibonacci number in JavaScript": coder writes, executor runs, 6765', computesFibonacci],
  ['"redact the personal data in: …" answers with placeholders and logs the guardrail', redactsPersonalData],
  ['"search the knowledge base for X and summarise" retrieves and summarises', searchesAndSummarises],
  ['a task that tries curl fails with COMMAND_NOT_ALLOWED', refusesCurl],
  ['a task that reads outside the sandbox fails without the content', cannotReadOutsideTheSandbox],
  ['acceptance criteria are judged; a failed one re-plans once, then fails', validatesAgainstAcceptanceCriteria],
]
