// Offline (the default provider), a task answers with the real result of what it ran, or fails
// with a code that says why: code the goal contains runs (42), a named command runs on the given
// text (4), a refused command fails with the policy's code, a goal that needs a model fails
// MODEL_REQUIRED, and a question the knowledge base has no passage for fails NO_KNOWLEDGE_MATCH.
// The whole service, over PGlite and over PostgreSQL.
import type { Test } from 'tap'
import t from 'tap'
import { postJson } from '../helpers/servers.js'
import { freshDatabase, SKIP_PG } from '../stores/pg-schema.js'
import { armsOf, runTask, startGanglion } from './e2e-fixture.js'

t.setTimeout(300_000)

async function scenarios(t: Test, base: string): Promise<void> {
  const js = await runTask(base, { goal: 'Run this JavaScript and report the result: 6*7' })
  t.equal(js.status, 'completed', JSON.stringify(js.error))
  t.same(armsOf(js), ['executor/javascript', 'guardian/scrub'])
  t.equal(js.result.answer, 42)

  const wc = await runTask(base, { goal: 'Run the shell command `wc -w` on this text: alpha beta gamma delta' })
  t.equal(wc.status, 'completed', JSON.stringify(wc.error))
  t.same(armsOf(wc), ['executor/shell', 'guardian/scrub'])
  t.equal(String(wc.result.answer).trim(), '4')

  const curl = await runTask(base, { goal: 'Run the shell command `curl http://example.com`' })
  t.equal(curl.status, 'failed')
  t.match(curl.error, { code: 'COMMAND_NOT_ALLOWED', retryable: false })
  t.notOk(curl.result?.answer, 'a refused task has no answer')

  const sonnet = await runTask(base, { goal: 'Write a sonnet about autumn' })
  t.equal(sonnet.status, 'failed')
  t.match(sonnet.error, { code: 'MODEL_REQUIRED', retryable: false, message: /needs a language model.*LLM_PROVIDER/ })
  t.same(sonnet.plan.steps, [], 'nothing ran')

  const question = 'What is the refund window for sale items?'
  const unanswered = await runTask(base, { goal: question })
  t.equal(unanswered.status, 'failed', 'no passage, no answer')
  t.match(unanswered.error, { code: 'NO_KNOWLEDGE_MATCH', retryable: false })
  t.same(armsOf(unanswered), ['retriever/search', 'guardian/scrub'])

  const ingest = await postJson(`${base}/api/v1/knowledge`, {
    documents: [{ title: 'Refunds', text: 'Refund window. Sale items have a refund window of 14 days from delivery.' }],
  })
  t.equal(ingest.status, 201)
  const answered = await runTask(base, { goal: question })
  t.equal(answered.status, 'completed', JSON.stringify(answered.error))
  t.match(answered.result.answer, /14 days/, 'the answer comes from the passage found')
}

t.test('on PGlite', async (t) => {
  await scenarios(t, await startGanglion(t))
})

t.test('on PostgreSQL', { skip: SKIP_PG }, async (t) => {
  await scenarios(t, await startGanglion(t, { DATABASE_URL: await freshDatabase(t, 'ganglion_honest') }))
})
