import { createServer } from 'node:net'
import t from 'tap'

import { OpenAiProvider } from '../../src/llm/openai-provider.js'
import { replayServer } from './fixtures/replay-server.js'

const request = { messages: [{ role: 'user' as const, content: 'hi' }] }

t.test('429 is LLM_UNAVAILABLE, retryable, with the API message and Retry-After', async (t) => {
  const { url } = await replayServer(t, { fixture: 'openai/rate-limited.json', status: 429, headers: { 'retry-after': '2' } })
  await t.rejects(new OpenAiProvider({ baseUrl: url }).complete(request), {
    name: 'LlmError',
    code: 'LLM_UNAVAILABLE',
    retryable: true,
    message: /HTTP 429: Rate limit reached .*retry after 2 s/,
  })
})

t.test('500 is LLM_UNAVAILABLE, retryable', async (t) => {
  const { url } = await replayServer(t, { fixture: 'openai/server-error.json', status: 500 })
  await t.rejects(new OpenAiProvider({ baseUrl: url }).complete(request), {
    code: 'LLM_UNAVAILABLE',
    retryable: true,
    message: /HTTP 500: The server had an error/,
  })
})

t.test('400 is LLM_BAD_REQUEST, not retryable, with the API message', async (t) => {
  const { url } = await replayServer(t, { fixture: 'openai/bad-request.json', status: 400 })
  await t.rejects(new OpenAiProvider({ baseUrl: url }).complete(request), {
    code: 'LLM_BAD_REQUEST',
    retryable: false,
    message: /HTTP 400: Invalid schema for response_format/,
  })
})

t.test('a streamed request that gets an error status fails the same way', async (t) => {
  const { url } = await replayServer(t, { fixture: 'openai/rate-limited.json', status: 429 })
  await t.rejects(
    (async () => {
      for await (const _ of new OpenAiProvider({ baseUrl: url }).stream(request));
    })(),
    { code: 'LLM_UNAVAILABLE', retryable: true },
  )
})

t.test('a refused connection is LLM_UNAVAILABLE, retryable', async (t) => {
  // a port that was free a moment ago: nothing listens there now
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port } = probe.address() as { port: number }
  await new Promise((resolve) => probe.close(resolve))
  await t.rejects(new OpenAiProvider({ baseUrl: `http://127.0.0.1:${port}/v1` }).complete(request), {
    code: 'LLM_UNAVAILABLE',
    retryable: true,
    message: /connection failed \(ECONNREFUSED\)/,
  })
})

t.test('an already aborted signal is LLM_ABORTED and sends nothing', async (t) => {
  const { url, requests } = await replayServer(t, { fixture: 'openai/chat-completion.json' })
  await t.rejects(new OpenAiProvider({ baseUrl: url }).complete(request, AbortSignal.abort()), { code: 'LLM_ABORTED', retryable: false })
  t.equal(requests.length, 0)
})
