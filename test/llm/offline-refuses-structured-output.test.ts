import t from 'tap'

import { OfflineProvider } from '../../src/llm/offline-provider.js'

t.test('a request with a schema fails with LLM_UNSUPPORTED, not retryable, streamed or not', async (t) => {
  const llm = new OfflineProvider()
  const request = { messages: [{ role: 'user' as const, content: 'Plan this.' }], schema: { name: 'plan', schema: { type: 'object' } } }
  await t.rejects(llm.complete(request), { name: 'LlmError', code: 'LLM_UNSUPPORTED', retryable: false })
  await t.rejects(
    (async () => {
      for await (const _ of llm.stream(request));
    })(),
    { code: 'LLM_UNSUPPORTED' },
  )
})
