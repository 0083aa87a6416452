// POST /api/v1/knowledge/search ranks the caller's tenant's chunks only: another tenant's document,
// however well it matches, is never a hit (by full text or by vector). Before tenants every search
// ran over every tenant's documents.
import { nonce, onEachBackend } from './tenants-fixture.js'

onEachBackend("another tenant's knowledge is not searched", async (t, service) => {
  const a = service.as('tenant-a-member')
  const b = service.as('tenant-b-member')
  const word = `zq${nonce()}`
  const secret = `The ${word} merger closes on Friday; tell nobody outside tenant a.`
  t.equal((await a.post('/api/v1/knowledge', { documents: [{ title: 'Merger', text: secret }] })).status, 201)
  t.equal((await b.post('/api/v1/knowledge', { documents: [{ title: 'Lunch', text: 'The canteen serves soup on Fridays.' }] })).status, 201)

  const search = async (client: typeof a) => {
    const res = await client.post('/api/v1/knowledge/search', { query: `${word} merger closes on Friday`, k: 10 })
    t.equal(res.status, 200)
    return ((await res.json()) as { results: Array<{ title: string; text: string }> }).results
  }
  const hitsOfB = await search(b)
  t.notOk(
    hitsOfB.some((h) => h.title === 'Merger'),
    "b's search never finds a's document",
  )
  t.notMatch(JSON.stringify(hitsOfB), word, 'nor any of its text')
  t.equal((await search(a))[0]?.title, 'Merger', 'a finds it first')
})
