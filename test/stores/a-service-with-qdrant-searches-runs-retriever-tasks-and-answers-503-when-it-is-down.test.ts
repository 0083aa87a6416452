// The whole orchestrator with QDRANT_URL set (on PGlite, and on PostgreSQL with DATABASE_URL):
// documents ingested over the API have their vectors in Qdrant, a knowledge search and a retriever
// task find them (the other tenant's never), deleting a document removes its points, and health
// reports Qdrant. With Qdrant down, ingest and search answer 503 naming it, and nothing is kept.
import type { Test } from 'tap'
import t from 'tap'
import { onEachBackend, submit, waitFinal } from '../security/tenants-fixture.js'
import { freshQdrant, SKIP_QDRANT } from './qdrant-server.js'

const withQdrant = async (t: Test) => {
  const qdrant = freshQdrant(t, 'service')
  return { env: { QDRANT_URL: qdrant.settings.url, QDRANT_COLLECTION_PREFIX: qdrant.settings.prefix }, qdrant }
}

if (SKIP_QDRANT) t.comment(`skipped the services with Qdrant up: ${SKIP_QDRANT}`)
else {
  let qdrantOf: Awaited<ReturnType<typeof withQdrant>>['qdrant'] | undefined
  onEachBackend(
    'knowledge and a retriever task with the vectors in Qdrant',
    async (t, service) => {
      const qdrant = qdrantOf!
      const a = service.as('tenant-a-member')
      const b = service.as('tenant-b-member')
      const text = 'Seasoned photographers explain how they compose landscapes at the okapi reserve.'
      const created = await a.post('/api/v1/knowledge', { documents: [{ title: 'Lenses', text }] })
      t.equal(created.status, 201)
      const [doc] = ((await created.json()) as { documents: Array<{ document_id: string }> }).documents
      const collection = qdrant.collectionName('knowledge', 384)
      const points = async () =>
        (
          await qdrant.client.count(collection, {
            filter: { must: [{ key: 'document_id', match: { value: doc!.document_id } }] },
            exact: true,
          })
        ).count
      t.equal(await points(), 1, 'its chunk is a point in Qdrant')

      // Full text misses the paraphrase (photographers / photography); the vector from Qdrant finds it.
      const search = await a.post('/api/v1/knowledge/search', { query: 'landscape photography', k: 3 })
      t.equal(search.status, 200)
      const { results } = (await search.json()) as { results: Array<Record<string, unknown>> }
      t.match(results[0], { document_id: doc!.document_id, fts_rank: null, vector_rank: 1 })
      const theirs = (await (await b.post('/api/v1/knowledge/search', { query: 'landscape photography', k: 3 })).json()) as {
        results: unknown[]
      }
      t.same(theirs.results, [], "another tenant's search finds nothing")

      const task = await waitFinal(a, (await submit(a, { goal: 'Search the knowledge base for the okapi reserve landscapes' })).task_id)
      t.equal(task.status, 'completed', JSON.stringify(task.error))
      const step = task.plan.steps.find((s: { arm: string; tool: string }) => s.arm === 'retriever' && s.tool === 'search')
      t.ok(step, 'the task searched the knowledge base')
      t.ok(
        step.output.hits.some((h: { document_id: string }) => h.document_id === doc!.document_id),
        'and found the document',
      )

      const health = (await (await service.as('tenant-a-viewer').get('/api/v1/health')).json()) as Record<string, any>
      t.equal(health.dependencies.qdrant, 'up', 'health reports Qdrant')

      t.equal((await b.delete(`/api/v1/knowledge/${doc!.document_id}`)).status, 404, "another tenant's delete is a 404")
      t.equal(await points(), 1, 'and removes no point')
      t.equal((await a.delete(`/api/v1/knowledge/${doc!.document_id}`)).status, 200)
      t.equal(await points(), 0, 'deleting the document removed its points')
    },
    {
      env: async (t) => {
        const { env, qdrant } = await withQdrant(t)
        qdrantOf = qdrant
        return env
      },
    },
  )
}

onEachBackend(
  'with Qdrant down, ingest and search answer 503 naming it and keep nothing',
  async (t, service) => {
    const a = service.as('tenant-a-member')
    const ingest = await a.post('/api/v1/knowledge', { documents: [{ title: 'Lost', text: 'The tapir pool is cleaned on Tuesdays.' }] })
    t.equal(ingest.status, 503)
    t.equal(ingest.headers.get('retry-after'), '5')
    t.match(await ingest.json(), {
      error: {
        code: 'SERVICE_UNAVAILABLE',
        message: /vector store \(qdrant\) is unavailable/,
        details: { field: 'qdrant', constraint: 'must be reachable' },
      },
    })
    const listed = (await (await a.get('/api/v1/knowledge')).json()) as { pagination: { total_items: number } }
    t.equal(listed.pagination.total_items, 0, 'the document was not kept')

    const search = await a.post('/api/v1/knowledge/search', { query: 'tapir', k: 3 })
    t.equal(search.status, 503, 'a search answers 503 rather than full-text hits alone')
    t.match(await search.json(), { error: { code: 'SERVICE_UNAVAILABLE', details: { field: 'qdrant' } } })

    const health = await service.as('tenant-a-viewer').get('/api/v1/health')
    t.equal(health.status, 200, 'the task service itself still works')
    t.match(await health.json(), { status: 'degraded', dependencies: { qdrant: 'down' } })
  },
  // A port nothing listens on.
  { env: { QDRANT_URL: 'http://127.0.0.1:18499' } },
)
