// DELETE /api/v1/knowledge/{id} of another tenant's document is the 404 of a document that does not
// exist, and the document stays. Before tenants any caller deleted any document.
import { randomUUID } from 'node:crypto'
import { nonce, notFound, onEachBackend } from './tenants-fixture.js'

onEachBackend("another tenant's knowledge document cannot be deleted", async (t, service) => {
  const a = service.as('tenant-a-member')
  const b = service.as('tenant-b-member')
  const word = `zq${nonce()}`
  const ingest = await a.post('/api/v1/knowledge', {
    documents: [{ title: 'Runbook', text: `Restart the ${word} worker after a deploy.` }],
  })
  const [doc] = ((await ingest.json()) as { documents: Array<{ document_id: string }> }).documents
  const id = doc!.document_id

  const missing = randomUUID()
  const never = await notFound(await b.delete(`/api/v1/knowledge/${missing}`), missing)
  t.match(never, { status: 404, code: 'NOT_FOUND', details: { field: 'document_id' } })
  t.same(await notFound(await b.delete(`/api/v1/knowledge/${id}`), id), never, 'exactly what an id that never existed answers')

  t.equal((await a.get(`/api/v1/knowledge/${id}`)).status, 200, 'the document is still there')
  const hits = (await (await a.post('/api/v1/knowledge/search', { query: `${word} worker`, k: 3 })).json()) as {
    results: Array<{ document_id: string }>
  }
  t.equal(hits.results[0]?.document_id, id, 'and still found, chunks and all')
  t.equal((await a.delete(`/api/v1/knowledge/${id}`)).status, 200, 'its own tenant deletes it')
})
