import t from 'tap'

import { AnthropicProvider } from '../../src/llm/anthropic-provider.js'
import { replayServer } from './fixtures/replay-server.js'

t.test('POSTs /v1/messages with the key and version headers, system joined apart, max_tokens defaulted', async (t) => {
  const { url, requests } = await replayServer(t, { fixture: 'anthropic/message.json' })
  const llm = new AnthropicProvider({ baseUrl: url, apiKey: 'sk-ant-test', model: 'claude-haiku-4-5' })
  const done = await llm.complete({
    messages: [
      { role: 'system', content: 'You are terse.' },
      { role: 'system', content: 'Answer in one sentence.' },
      { role: 'user', content: 'Why did the deployment fail?' },
    ],
    temperature: 1.5,
    stop: ['END'],
  })

  const [sent] = requests
  t.equal(sent?.path, '/v1/messages')
  t.equal(sent?.headers['x-api-key'], 'sk-ant-test')
  t.equal(sent?.headers['anthropic-version'], '2023-06-01')
  t.equal(sent?.headers.authorization, undefined, 'the key goes in x-api-key only')
  t.same(sent?.body, {
    model: 'claude-haiku-4-5',
    max_tokens: 1024,
    messages: [{ role: 'user', content: 'Why did the deployment fail?' }],
    system: 'You are terse.\n\nAnswer in one sentence.',
    temperature: 1,
    stop_sequences: ['END'],
  })

  t.equal(done.text, 'The deployment failed because the database migration timed out.')
  t.same(done.usage, { prompt: 27, completion: 14 })
  t.equal(done.model, 'claude-haiku-4-5-20251001')
  t.equal(done.finishReason, 'stop')
})

t.test("sends the request's maxTokens, and no system field when there is none", async (t) => {
  const { url, requests } = await replayServer(t, { fixture: 'anthropic/message.json' })
  await new AnthropicProvider({ baseUrl: url, apiKey: 'k' }).complete({ messages: [{ role: 'user', content: 'hi' }], maxTokens: 77 })
  t.equal(requests[0]?.body?.max_tokens, 77)
  t.notOk('system' in (requests[0]?.body ?? {}))
})

t.test('refuses to be built without an API key', async (t) => {
  t.throws(() => new AnthropicProvider({ apiKey: '' }), { code: 'LLM_NOT_CONFIGURED' })
})
