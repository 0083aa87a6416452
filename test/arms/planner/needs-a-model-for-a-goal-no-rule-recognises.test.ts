// Offline, a goal that is neither a recognised intent nor a question cannot be planned: the planner
// says a model is needed (MODEL_REQUIRED, not retryable) rather than answering with a search.
import t from 'tap'

import { plan } from './planner-fixture.js'

t.test('work only a model can do is MODEL_REQUIRED, with a message that says what to configure', async (t) => {
  for (const goal of ['Write a sonnet about autumn', 'Translate: Bonjour', 'Draft the release notes', 'Say hello']) {
    await t.rejects(plan(goal), { code: 'MODEL_REQUIRED', retryable: false, message: /needs a language model.*LLM_PROVIDER/ }, goal)
  }
})

t.test('hostile goals end in the same refusal, at once', async (t) => {
  const started = Date.now()
  for (const goal of ['run '.repeat(5000), `${'`'.repeat(20_000)}x`, `write ${'a '.repeat(10_000)}`, 'Run this JavaScript'.repeat(500)])
    await plan(goal).catch((err: { code?: string }) => t.ok(err.code === 'MODEL_REQUIRED' || err.code === undefined, err.code ?? ''))
  t.ok(Date.now() - started < 5000, 'no goal holds the planner')
})
