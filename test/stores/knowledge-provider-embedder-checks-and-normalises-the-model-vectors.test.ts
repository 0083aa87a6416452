import t from 'tap'
import { providerEmbedder } from '../../src/llm/embedder.js'
import { OfflineProvider } from '../../src/llm/offline-provider.js'
import type { LlmProvider } from '../../src/llm/provider.js'

function providerWith(embed: (texts: readonly string[]) => number[][]): LlmProvider & { calls: number } {
  const base = new OfflineProvider()
  const p = Object.assign(Object.create(base) as LlmProvider, {
    provider: 'openai' as const,
    calls: 0,
    async embed(texts: readonly string[]) {
      p.calls++
      return embed(texts)
    },
  })
  return p
}

t.test('id is provider/model; dimensions are learnt from the first reply; vectors come back at unit length', async (t) => {
  const provider = providerWith((texts) => texts.map((_, i) => [3, 4, i]))
  const e = providerEmbedder(provider, 'text-embedding-3-small')
  t.equal(e.id, 'openai/text-embedding-3-small')
  t.equal(e.dimensions, 0)
  const [a, b] = await e.embed(['one', 'two'])
  t.equal(e.dimensions, 3)
  t.same(a, [0.6, 0.8, 0])
  t.ok(Math.abs(Math.hypot(...b!) - 1) < 1e-12)
  t.same(await e.embed([]), [], 'nothing to embed: no call')
  t.equal(provider.calls, 1)
})

t.test('a reply of the wrong count or length is LLM_BAD_OUTPUT', async (t) => {
  await t.rejects(
    providerEmbedder(
      providerWith(() => [[1, 0]]),
      'm',
    ).embed(['a', 'b']),
    { code: 'LLM_BAD_OUTPUT' },
  )
  let n = 2
  const e = providerEmbedder(
    providerWith((texts) => texts.map(() => Array.from({ length: n }, () => 1))),
    'm',
  )
  await e.embed(['a'])
  n = 3
  await t.rejects(e.embed(['b']), { code: 'LLM_BAD_OUTPUT' })
})

t.test('a provider without embeddings cannot be used', async (t) => {
  t.throws(() => providerEmbedder(new OfflineProvider(), 'm'), { code: 'LLM_UNSUPPORTED' })
})
