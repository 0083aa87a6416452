// GET /api/v1/knowledge/{id} of another tenant's document is the 404 of a document that does not
// exist. Before tenants any caller read any document, its whole text included, by its id.
import { randomUUID } from 'node:crypto'
import { nonce, notFound, onEachBackend } from './tenants-fixture.js'

onEachBackend("another tenant's knowledge document reads as not found", async (t, service) => {
  const a = service.as('tenant-a-member')
  const b = service.as('tenant-b-member')
  const ingest = await a.post('/api/v1/knowledge', { documents: [{ title: 'Salaries', text: `The ${nonce()} salary bands of tenant a.` }] })
  t.equal(ingest.status, 201)
  const [doc] = ((await ingest.json()) as { documents: Array<{ document_id: string }> }).documents
  t.equal((await a.get(`/api/v1/knowledge/${doc!.document_id}`)).status, 200, 'its own tenant reads it')

  const missing = randomUUID()
  const never = await notFound(await b.get(`/api/v1/knowledge/${missing}`), missing)
  t.match(never, { status: 404, code: 'NOT_FOUND', details: { field: 'document_id' } })
  t.same(
    await notFound(await b.get(`/api/v1/knowledge/${doc!.document_id}`), doc!.document_id),
    never,
    'exactly what an id that never existed answers',
  )
})
