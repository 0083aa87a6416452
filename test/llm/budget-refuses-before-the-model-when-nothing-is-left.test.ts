import t from 'tap'

import { BudgetedLlm } from '../../src/llm/budgeted-llm.js'
import { OpenAiProvider } from '../../src/llm/openai-provider.js'
import { estimatePromptTokens } from '../../src/llm/tokens.js'
import { replayServer } from './fixtures/replay-server.js'

const messages = [{ role: 'user' as const, content: 'Summarise the incident report of last night in three sentences.' }]

t.test('a budget smaller than the prompt refuses, and no request reaches the server', async (t) => {
  const { url, requests } = await replayServer(t, { fixture: 'openai/chat-completion.json' })
  const llm = new BudgetedLlm(new OpenAiProvider({ baseUrl: url }), estimatePromptTokens(messages))
  await t.rejects(llm.complete({ messages }), { code: 'LLM_BUDGET_EXCEEDED', retryable: false })
  await t.rejects(
    (async () => {
      for await (const _ of llm.stream({ messages }));
    })(),
    { code: 'LLM_BUDGET_EXCEEDED' },
  )
  t.equal(requests.length, 0)
  t.same(llm.usage, { prompt: 0, completion: 0 })
  t.same(llm.modelsUsed, [])
})

t.test('the completion cap sent is what remains after the prompt; once spent, the next call is refused', async (t) => {
  const { url, requests } = await replayServer(t, { fixture: 'openai/chat-completion.json' })
  const prompt = estimatePromptTokens(messages)
  const llm = new BudgetedLlm(new OpenAiProvider({ baseUrl: url }), prompt + 50)
  await llm.complete({ messages, maxTokens: 500 })
  t.equal(requests[0]?.body?.max_tokens, 50, 'lowered from 500 to what the allowance leaves')
  t.same(llm.usage, { prompt: 31, completion: 12 })
  t.equal(llm.remaining, prompt + 50 - 43)
  await llm.complete({ messages, maxTokens: 500 })
  t.equal(requests[1]?.body?.max_tokens, 50 - 43, 'the next cap is what the real usage left')
  await t.rejects(llm.complete({ messages }), { code: 'LLM_BUDGET_EXCEEDED', message: /left/ })
  t.equal(requests.length, 2)
})

t.test('a zero budget refuses; no budget (null) sends the request as asked', async (t) => {
  const { url, requests } = await replayServer(t, { fixture: 'openai/chat-completion.json' })
  await t.rejects(new BudgetedLlm(new OpenAiProvider({ baseUrl: url }), 0).complete({ messages }), { code: 'LLM_BUDGET_EXCEEDED' })
  const open = new BudgetedLlm(new OpenAiProvider({ baseUrl: url }), null)
  await open.complete({ messages })
  t.notOk('max_tokens' in (requests[0]?.body ?? {}), 'no cap invented')
  t.equal(open.remaining, null)
  t.same(open.usage, { prompt: 31, completion: 12 }, 'still counted')
  t.throws(() => new BudgetedLlm(new OpenAiProvider({ baseUrl: url }), -1), RangeError)
})
