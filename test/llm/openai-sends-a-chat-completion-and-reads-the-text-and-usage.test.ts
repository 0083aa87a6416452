import t from 'tap'

import { OpenAiProvider } from '../../src/llm/openai-provider.js'
import { replayServer } from './fixtures/replay-server.js'

t.test('POSTs the chat completion with the key, caps and stops, and reads text, usage and model', async (t) => {
  const { url, requests } = await replayServer(t, { fixture: 'openai/chat-completion.json' })
  const llm = new OpenAiProvider({ baseUrl: `${url}/v1/`, apiKey: 'sk-test-123', model: 'gpt-4o-mini' })

  const done = await llm.complete({
    messages: [
      { role: 'system', content: 'Answer in one sentence.' },
      { role: 'user', content: 'Why did the deployment fail?' },
    ],
    maxTokens: 64,
    temperature: 0.2,
    stop: ['\n\n'],
  })

  t.equal(requests.length, 1)
  const [sent] = requests
  t.equal(sent?.method, 'POST')
  t.equal(sent?.path, '/v1/chat/completions', 'the trailing slash of the base is not doubled')
  t.equal(sent?.headers.authorization, 'Bearer sk-test-123')
  t.match(sent?.headers['content-type'], /application\/json/)
  t.same(sent?.body, {
    model: 'gpt-4o-mini',
    messages: [
      { role: 'system', content: 'Answer in one sentence.' },
      { role: 'user', content: 'Why did the deployment fail?' },
    ],
    max_tokens: 64,
    temperature: 0.2,
    stop: ['\n\n'],
  })

  t.equal(done.text, 'The deployment failed because the database migration timed out.')
  t.same(done.usage, { prompt: 31, completion: 12 }, 'usage as the API counted it')
  t.equal(done.model, 'gpt-4o-mini-2024-07-18', 'the model that answered')
  t.equal(done.finishReason, 'stop')
  t.equal(done.json, undefined)
})

t.test('sends no Authorization header without a key, and max_completion_tokens when asked', async (t) => {
  const { url, requests } = await replayServer(t, { fixture: 'openai/chat-completion.json' })
  const llm = new OpenAiProvider({ baseUrl: url, model: 'o4-mini', maxTokensField: 'max_completion_tokens' })
  await llm.complete({ messages: [{ role: 'user', content: 'hi' }], maxTokens: 10 })
  t.equal(requests[0]?.headers.authorization, undefined)
  t.equal(requests[0]?.body?.max_completion_tokens, 10)
  t.notOk('max_tokens' in (requests[0]?.body ?? {}))
})

t.test('refuses a bad request before sending it', async (t) => {
  const { url, requests } = await replayServer(t, { fixture: 'openai/chat-completion.json' })
  const llm = new OpenAiProvider({ baseUrl: url })
  await t.rejects(llm.complete({ messages: [] }), { code: 'LLM_BAD_REQUEST', message: /messages/ })
  await t.rejects(llm.complete({ messages: [{ role: 'user', content: 'x' }], maxTokens: 0 }), {
    code: 'LLM_BAD_REQUEST',
    message: /maxTokens/,
  })
  await t.rejects(llm.complete({ messages: [{ role: 'user', content: 'x' }], temperature: 3 }), {
    code: 'LLM_BAD_REQUEST',
    message: /temperature/,
  })
  await t.rejects(llm.complete({ messages: [{ role: 'tool' as 'user', content: 'x' }] }), { code: 'LLM_BAD_REQUEST', message: /role/ })
  await t.rejects(llm.complete({ messages: [{ role: 'user', content: 'x' }], schema: { name: 'has space', schema: {} } }), {
    code: 'LLM_BAD_REQUEST',
    message: /schema.name/,
  })
  t.equal(requests.length, 0, 'nothing reached the server')
})
