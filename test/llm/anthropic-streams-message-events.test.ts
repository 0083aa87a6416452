import t from 'tap'

import { AnthropicProvider } from '../../src/llm/anthropic-provider.js'
import type { CompletionChunk } from '../../src/llm/provider.js'
import { replayServer } from './fixtures/replay-server.js'

async function collect(iterable: AsyncIterable<CompletionChunk>): Promise<CompletionChunk[]> {
  const chunks: CompletionChunk[] = []
  for await (const chunk of iterable) chunks.push(chunk)
  return chunks
}

t.test('text deltas as they come, usage from message_start and message_delta', async (t) => {
  const { url, requests } = await replayServer(t, { fixture: 'anthropic/message-stream.sse' })
  const chunks = await collect(
    new AnthropicProvider({ baseUrl: url, apiKey: 'k' }).stream({ messages: [{ role: 'user', content: 'Why?' }] }),
  )
  t.equal(requests[0]?.body?.stream, true)
  t.same(
    chunks.flatMap((c) => (c.type === 'delta' ? [c.text] : [])),
    ['The deployment', ' failed because', ' the migration timed out.'],
  )
  const last = chunks.at(-1)
  if (last?.type !== 'done') return t.fail('the last chunk is done')
  t.equal(last.completion.text, 'The deployment failed because the migration timed out.')
  t.same(last.completion.usage, { prompt: 27, completion: 11 })
  t.equal(last.completion.model, 'claude-haiku-4-5-20251001')
  t.equal(last.completion.finishReason, 'stop')
})

t.test('an error event mid-stream is mapped (overloaded: retryable) and bills what was started', async (t) => {
  const { url } = await replayServer(t, { fixture: 'anthropic/overloaded-stream.sse' })
  const seen: string[] = []
  const error = await (async () => {
    try {
      for await (const c of new AnthropicProvider({ baseUrl: url, apiKey: 'k' }).stream({ messages: [{ role: 'user', content: 'Why?' }] }))
        if (c.type === 'delta') seen.push(c.text)
    } catch (err) {
      return err
    }
  })()
  t.same(seen, ['The deployment'])
  t.match(error, { code: 'LLM_UNAVAILABLE', retryable: true, message: /overloaded_error: Overloaded/ })
  t.match(error, { usage: { prompt: 27 } }, 'the prompt reported by message_start is charged')
})

t.test('a stream cut before message_stop is LLM_UNAVAILABLE; an abort is LLM_ABORTED', async (t) => {
  const cut = await replayServer(t, { fixture: 'anthropic/message-stream.sse', events: 4, then: 'cut' })
  await t.rejects(
    collect(new AnthropicProvider({ baseUrl: cut.url, apiKey: 'k' }).stream({ messages: [{ role: 'user', content: 'Why?' }] })),
    {
      code: 'LLM_UNAVAILABLE',
      retryable: true,
    },
  )

  const held = await replayServer(t, { fixture: 'anthropic/message-stream.sse', events: 4, then: 'hold' })
  const controller = new AbortController()
  await t.rejects(
    (async () => {
      for await (const c of new AnthropicProvider({ baseUrl: held.url, apiKey: 'k' }).stream(
        { messages: [{ role: 'user', content: 'Why?' }] },
        controller.signal,
      ))
        if (c.type === 'delta') controller.abort()
    })(),
    { code: 'LLM_ABORTED', retryable: false },
  )
})
