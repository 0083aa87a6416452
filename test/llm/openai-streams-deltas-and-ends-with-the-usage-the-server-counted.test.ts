import t from 'tap'

import { OpenAiProvider } from '../../src/llm/openai-provider.js'
import type { CompletionChunk } from '../../src/llm/provider.js'
import { replayServer } from './fixtures/replay-server.js'

t.test('streams over SSE, asking for usage, and ends with the whole completion', async (t) => {
  const { url, requests } = await replayServer(t, { fixture: 'openai/chat-stream.sse' })
  const llm = new OpenAiProvider({ baseUrl: url, apiKey: 'sk-test' })

  const chunks: CompletionChunk[] = []
  for await (const chunk of llm.stream({ messages: [{ role: 'user', content: 'Why did it fail?' }], maxTokens: 50 })) chunks.push(chunk)

  t.equal(requests[0]?.body?.stream, true)
  t.same(requests[0]?.body?.stream_options, { include_usage: true })
  t.equal(requests[0]?.body?.max_tokens, 50)
  const deltas = chunks.filter((c) => c.type === 'delta').map((c) => (c.type === 'delta' ? c.text : ''))
  t.same(deltas, ['The deployment', ' failed because', ' the migration', ' timed out.'], 'the empty role delta is not passed on')
  const last = chunks.at(-1)
  t.equal(last?.type, 'done', 'the last chunk is done')
  if (last?.type !== 'done') return
  t.equal(last.completion.text, deltas.join(''))
  t.same(last.completion.usage, { prompt: 31, completion: 9 }, 'usage from the final usage chunk')
  t.equal(last.completion.model, 'gpt-4o-mini-2024-07-18')
  t.equal(last.completion.finishReason, 'stop')
})

t.test('a stream cut halfway is LLM_UNAVAILABLE, retryable, and billed for what arrived', async (t) => {
  const { url } = await replayServer(t, { fixture: 'openai/chat-stream.sse', events: 3, then: 'cut' })
  const llm = new OpenAiProvider({ baseUrl: url })
  const seen: string[] = []
  const error = await (async () => {
    try {
      for await (const chunk of llm.stream({ messages: [{ role: 'user', content: 'Why did it fail?' }] }))
        if (chunk.type === 'delta') seen.push(chunk.text)
    } catch (err) {
      return err
    }
    return undefined
  })()
  t.same(seen, ['The deployment', ' failed because'], 'the deltas before the cut arrived')
  t.match(error, { code: 'LLM_UNAVAILABLE', retryable: true })
  t.ok((error as { usage?: { completion: number } }).usage?.completion, 'the partial output is counted')
})

t.test('aborting the signal mid-stream ends it with LLM_ABORTED, not retryable', async (t) => {
  const { url } = await replayServer(t, { fixture: 'openai/chat-stream.sse', events: 2, then: 'hold' })
  const llm = new OpenAiProvider({ baseUrl: url })
  const controller = new AbortController()
  const seen: string[] = []
  const started = Date.now()
  await t.rejects(
    (async () => {
      for await (const chunk of llm.stream({ messages: [{ role: 'user', content: 'Why?' }] }, controller.signal)) {
        if (chunk.type === 'delta') {
          seen.push(chunk.text)
          controller.abort()
        }
      }
    })(),
    { code: 'LLM_ABORTED', retryable: false },
  )
  t.same(seen, ['The deployment'])
  t.ok(Date.now() - started < 5000, 'the held connection did not keep it waiting')
})

t.test('a server that never finishes is cut by the timeout as LLM_UNAVAILABLE', async (t) => {
  const { url } = await replayServer(t, { fixture: 'openai/chat-stream.sse', events: 2, then: 'hold' })
  const llm = new OpenAiProvider({ baseUrl: url, timeoutMs: 300 })
  await t.rejects(
    (async () => {
      for await (const _ of llm.stream({ messages: [{ role: 'user', content: 'Why?' }] }));
    })(),
    { code: 'LLM_UNAVAILABLE', retryable: true, message: /300 ms/ },
  )
})
