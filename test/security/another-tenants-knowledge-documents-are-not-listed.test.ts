// GET /api/v1/knowledge lists the caller's tenant's documents only, with a total that counts them
// alone. Before tenants it listed every document of the service, whoever asked.
import { nonce, onEachBackend } from './tenants-fixture.js'

onEachBackend("another tenant's knowledge documents are not listed", async (t, service) => {
  const word = nonce()
  for (const tenant of ['a', 'b']) {
    const res = await service.as(`tenant-${tenant}-member`).post('/api/v1/knowledge', {
      documents: [{ title: `Handbook of ${tenant}`, text: `The ${word} handbook of tenant ${tenant}.` }],
    })
    t.equal(res.status, 201)
  }
  const listed = async (token: string) =>
    (await (await service.as(token).get('/api/v1/knowledge?page_size=100')).json()) as {
      data: Array<{ title: string }>
      pagination: { total_items: number }
    }
  const seenByB = await listed('tenant-b-viewer')
  t.same(
    seenByB.data.map((d) => d.title),
    ['Handbook of b'],
    "b's list holds its own document only",
  )
  t.equal(seenByB.pagination.total_items, 1)
  t.same(
    (await listed('tenant-a-member')).data.map((d) => d.title),
    ['Handbook of a'],
  )
})
