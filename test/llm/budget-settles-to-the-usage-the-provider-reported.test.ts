import t from 'tap'

import { BudgetedLlm } from '../../src/llm/budgeted-llm.js'
import { OpenAiProvider } from '../../src/llm/openai-provider.js'
import { PLAN_SCHEMA } from './fixtures/plan-schema.js'
import { replayServer } from './fixtures/replay-server.js'

const messages = [{ role: 'user' as const, content: 'Why did the deployment fail?' }]

t.test('while a call runs its reservation is held; after, only the real usage stays', async (t) => {
  const { url } = await replayServer(t, { fixture: 'openai/chat-completion.json' })
  const llm = new BudgetedLlm(new OpenAiProvider({ baseUrl: url }), 5000)
  const pending = llm.complete({ messages, maxTokens: 1000 })
  t.ok((llm.remaining ?? 0) < 4000, 'the cap is held during the call')
  await pending
  t.equal(llm.remaining, 5000 - 43)
  t.same(llm.usage, { prompt: 31, completion: 12 })
  t.same(llm.modelsUsed, ['openai/gpt-4o-mini-2024-07-18'])
})

t.test('a streamed call settles from its done chunk', async (t) => {
  const { url } = await replayServer(t, { fixture: 'openai/chat-stream.sse' })
  const llm = new BudgetedLlm(new OpenAiProvider({ baseUrl: url }), 5000)
  for await (const _ of llm.stream({ messages }));
  t.same(llm.usage, { prompt: 31, completion: 9 })
  t.equal(llm.remaining, 5000 - 40)
})

t.test('a failure that reported usage is charged; one that cost nothing is not', async (t) => {
  const { url } = await replayServer(t, [
    { fixture: 'openai/structured-not-json.json' },
    { fixture: 'openai/structured-not-json.json' }, // an unusable reply is asked again once
    { fixture: 'openai/rate-limited.json', status: 429 },
  ])
  const llm = new BudgetedLlm(new OpenAiProvider({ baseUrl: url }), 5000)
  await t.rejects(llm.complete({ messages, schema: { name: 'plan', schema: PLAN_SCHEMA } }), { code: 'LLM_BAD_OUTPUT' })
  t.same(llm.usage, { prompt: 176, completion: 32 }, 'both unparseable replies were billed')
  t.same(llm.modelsUsed, ['openai/qwen2.5:7b'])
  await t.rejects(llm.complete({ messages }), { code: 'LLM_UNAVAILABLE' })
  t.same(llm.usage, { prompt: 176, completion: 32 }, 'the 429 was not')
  t.equal(llm.remaining, 5000 - 208, 'no reservation left behind by failures')
})

t.test('a stream cut halfway, or left early by the consumer, is charged what was produced', async (t) => {
  const { url } = await replayServer(t, [
    { fixture: 'openai/chat-stream.sse', events: 3, then: 'cut' },
    { fixture: 'openai/chat-stream.sse' },
  ])
  const cut = new BudgetedLlm(new OpenAiProvider({ baseUrl: url }), 5000)
  await t.rejects(
    (async () => {
      for await (const _ of cut.stream({ messages }));
    })(),
    { code: 'LLM_UNAVAILABLE' },
  )
  t.ok(cut.usage.completion > 0, 'the partial output is charged')
  t.equal(cut.remaining, 5000 - cut.usage.prompt - cut.usage.completion)

  const left = new BudgetedLlm(new OpenAiProvider({ baseUrl: url }), 5000)
  for await (const chunk of left.stream({ messages })) if (chunk.type === 'delta') break
  t.ok(left.usage.completion > 0, 'what was received before leaving is charged')
  t.equal(left.remaining, 5000 - left.usage.prompt - left.usage.completion, 'and the reservation released')
})
