import t from 'tap'
import { chunkText } from '../../src/stores/chunk-text.js'

const sentences = (n: number, topic: string) =>
  Array.from({ length: n }, (_, i) => `Sentence ${i} is about ${topic} and nothing else.`).join(' ')

t.test('a short text is one chunk, empty text none', async (t) => {
  t.same(chunkText('  Just this.  '), [{ text: 'Just this.', start: 2 }])
  t.same(chunkText(''), [])
  t.same(chunkText(' \n\n \t'), [])
})

t.test('chunks stay within the limit, cut at sentence ends, and overlap a little', async (t) => {
  const doc = [sentences(4, 'tides'), sentences(40, 'turbines'), sentences(3, 'cables')].join('\n\n')
  const chunks = chunkText(doc)
  t.ok(chunks.length > 2)
  for (const c of chunks) {
    t.ok(c.text.length <= 1000, `chunk of ${c.text.length} chars`)
    t.ok(doc.includes(c.text), 'a chunk is a span of the original')
    t.equal(c.text, c.text.trim())
    t.match(c.text, /\.$/, 'ends at a sentence end')
  }
  for (let i = 1; i < chunks.length; i++) {
    const prev = chunks[i - 1]!
    const next = chunks[i]!
    t.ok(next.start > prev.start, 'starts move forward')
    const prevEnd = doc.indexOf(prev.text) + prev.text.length
    const overlapStart = doc.indexOf(next.text)
    t.ok(overlapStart < prevEnd, 'the next chunk repeats the end of the previous one')
    t.ok(prevEnd - overlapStart <= 150, 'by at most 150 characters')
    t.ok(next.start >= prevEnd, 'and its own text begins after it')
  }
  // Every sentence is in some chunk whole.
  for (const s of doc.split(/(?<=\.)\s+/))
    t.ok(
      chunks.some((c) => c.text.includes(s.trim())),
      s.slice(0, 30),
    )
})

t.test('paragraph breaks are kept inside a chunk and preferred as cuts', async (t) => {
  const doc = `${'a'.repeat(600)}.\n\n${'b'.repeat(600)}.`
  const chunks = chunkText(doc)
  t.equal(chunks.length, 2)
  t.equal(chunks[0]!.text, `${'a'.repeat(600)}.`)
  t.equal(chunks[1]!.start, 603)
  t.same(chunkText('One.\n\nTwo.'), [{ text: 'One.\n\nTwo.', start: 0 }])
})

t.test('a word longer than the limit is cut hard', async (t) => {
  const chunks = chunkText('x'.repeat(2500), { overlapChars: 0 })
  t.same(
    chunks.map((c) => c.text.length),
    [1000, 1000, 500],
  )
  t.same(
    chunks.map((c) => c.start),
    [0, 1000, 2000],
  )
})
