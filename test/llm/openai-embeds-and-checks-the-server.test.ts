import t from 'tap'

import { OpenAiProvider } from '../../src/llm/openai-provider.js'
import { replayServer } from './fixtures/replay-server.js'

t.test('embed() POSTs the texts to /embeddings and returns the vectors in input order', async (t) => {
  const { url, requests } = await replayServer(t, { fixture: 'openai/embeddings.json' })
  const llm = new OpenAiProvider({ baseUrl: url, embeddingModel: 'nomic-embed-text' })
  const vectors = await llm.embed(['first text', 'second text'])
  t.equal(requests[0]?.path, '/embeddings')
  t.same(requests[0]?.body, { model: 'nomic-embed-text', input: ['first text', 'second text'] })
  t.same(
    vectors,
    [
      [0.0023064255, -0.009327292, 0.015797377],
      [0.25, -0.5, 0.125],
    ],
    'sorted by index, not by the order the server listed them',
  )
})

t.test('embed() of nothing asks nothing; a count mismatch is LLM_UNAVAILABLE', async (t) => {
  const { url, requests } = await replayServer(t, { fixture: 'openai/embeddings.json' })
  const llm = new OpenAiProvider({ baseUrl: url })
  t.same(await llm.embed([]), [])
  t.equal(requests.length, 0)
  await t.rejects(llm.embed(['only one']), { code: 'LLM_UNAVAILABLE', message: /expected 1 embeddings/ })
})

t.test('check() lists /models and reports whether the model is there; never throws', async (t) => {
  const { url, requests } = await replayServer(t, [{ fixture: 'openai/models.json' }, { fixture: 'openai/server-error.json', status: 500 }])
  const llm = new OpenAiProvider({ baseUrl: url, apiKey: 'sk-test', model: 'gpt-4o-mini' })
  t.same(await llm.check(), { ok: true, detail: 'gpt-4o-mini available' })
  t.equal(requests[0]?.method, 'GET')
  t.equal(requests[0]?.path, '/models')
  t.equal(requests[0]?.headers.authorization, 'Bearer sk-test')
  const down = await llm.check()
  t.equal(down.ok, false)
  t.match(down.detail, /HTTP 500/)
})
