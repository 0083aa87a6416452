import t from 'tap'
import { HashingEmbedder, wordsOf } from '../../src/llm/hashing-embedder.js'

const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0)

t.test('the same text gives the same vector, from any instance', async (t) => {
  const [a] = await new HashingEmbedder().embed(['Count the lines of the report'])
  const [b] = await new HashingEmbedder().embed(['Count the lines of the report'])
  t.same(a, b)
  t.equal(new HashingEmbedder().id, 'hashing-384-v1')
  t.equal(a!.length, 384)
  t.equal(new HashingEmbedder(64).id, 'hashing-64-v1')
})

t.test('vectors have unit length; an empty text is the zero vector', async (t) => {
  const [a, empty] = await new HashingEmbedder().embed(['Tidal turbines under the sea', ' ,.; '])
  t.ok(Math.abs(Math.hypot(...a!) - 1) < 1e-9)
  t.ok(empty!.every((x) => x === 0))
})

t.test('similar texts are closer than unrelated ones', async (t) => {
  const e = new HashingEmbedder()
  const [query, paraphrase, inflected, unrelated] = await e.embed([
    'photography tips for beginners',
    'tips for beginner photographers',
    'photographers',
    'quarterly tax filing deadlines',
  ])
  t.ok(cosine(query!, paraphrase!) > 0.3, `paraphrase ${cosine(query!, paraphrase!)}`)
  t.ok(cosine(query!, paraphrase!) > cosine(query!, unrelated!) + 0.2)
  t.ok(Math.abs(cosine(query!, unrelated!)) < 0.15, `unrelated ${cosine(query!, unrelated!)}`)
  const [photography] = await e.embed(['photography'])
  t.ok(cosine(photography!, inflected!) > 0.3, 'character trigrams join inflected forms')
})

t.test('words are folded: case, accents, compatibility forms', async (t) => {
  t.same(wordsOf('Café-CRÈME ﬁne'), ['cafe', 'creme', 'fine'])
  const e = new HashingEmbedder()
  t.same(e.embedOne('CAFÉ crème'), e.embedOne('cafe creme'))
})

t.test('an aborted signal stops it', async (t) => {
  const ac = new AbortController()
  ac.abort()
  await t.rejects(new HashingEmbedder().embed(['x'], ac.signal))
})
