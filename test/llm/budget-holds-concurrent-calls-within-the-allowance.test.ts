import t from 'tap'

import { BudgetedLlm } from '../../src/llm/budgeted-llm.js'
import { OpenAiProvider } from '../../src/llm/openai-provider.js'
import { estimatePromptTokens } from '../../src/llm/tokens.js'
import { replayServer } from './fixtures/replay-server.js'

t.test('calls in flight together cannot send more than the allowance, each holding its own reservation', async (t) => {
  const { url, requests } = await replayServer(t, { fixture: 'openai/chat-completion.json' })
  const allowance = 700
  const llm = new BudgetedLlm(new OpenAiProvider({ baseUrl: url }), allowance)
  const ask = (i: number) =>
    llm.complete({ messages: [{ role: 'user', content: `Question number ${i}: why did it fail?` }], maxTokens: 200 })

  const results = await Promise.allSettled([0, 1, 2, 3, 4, 5].map(ask))

  const reserved = requests.reduce(
    (sum, r) => sum + estimatePromptTokens(r.body?.messages as Array<{ role: 'user'; content: string }>) + (r.body?.max_tokens as number),
    0,
  )
  t.ok(reserved <= allowance, `prompt estimates plus caps sent (${reserved}) stay within ${allowance}`)
  const refused = results.filter((r) => r.status === 'rejected')
  t.ok(refused.length > 0, 'some calls were refused')
  t.ok(refused.every((r) => r.status === 'rejected' && (r.reason as { code?: string }).code === 'LLM_BUDGET_EXCEEDED'))
  t.equal(requests.length, results.length - refused.length, 'only the admitted calls reached the server')
  t.ok(
    requests.some((r) => (r.body?.max_tokens as number) < 200),
    'the last admitted call got a lowered cap',
  )

  // settled: each admitted call charged 43 real tokens, the reservations released
  t.same(llm.usage, { prompt: 31 * requests.length, completion: 12 * requests.length })
  t.equal(llm.remaining, allowance - 43 * requests.length)
})
