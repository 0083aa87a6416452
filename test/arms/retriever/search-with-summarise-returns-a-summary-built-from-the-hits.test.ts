import t from 'tap'
import { createRetrieverArm } from '../../../src/arms/retriever/retriever-arm.js'
import { openSql } from '../../../src/stores/open-sql.js'
import { SqlEpisodicMemory } from '../../../src/stores/sql-episodic-memory.js'
import { SqlKnowledgeStore } from '../../../src/stores/sql-knowledge-store.js'
import { ARM_TENANT, armContext, executeRequest } from '../arm-context-fixture.js'

t.test('search with summarise returns the hits and a summary made of their sentences', async (t) => {
  const sql = await openSql({ dataDir: 'memory://' })
  t.teardown(() => sql.close())
  const knowledge = await SqlKnowledgeStore.open(sql)
  const arm = createRetrieverArm({ knowledge, memory: new SqlEpisodicMemory(sql, knowledge.embedder) })
  // Another tenant's runbook on the very same subject: never a hit of this task's search.
  await knowledge.ingest('tenant-2', [
    { title: 'Their runbook', text: 'To restart the ingest worker, restart the ingest worker: systemctl restart ingest.' },
  ])
  await knowledge.ingest(ARM_TENANT, [
    {
      title: 'Worker runbook',
      source: 'wiki/runbook',
      text: 'To restart the ingest worker, drain its queue first. Then restart the worker with systemctl restart ingest. The worker reconnects to the queue within a minute.',
    },
    { title: 'Lunch', text: 'The canteen serves soup on Tuesdays and fish on Fridays.' },
  ])

  const { ctx, llm } = armContext({ arm: 'retriever', tool: 'search' })
  const out = (await arm.execute(
    executeRequest({ tool: 'search', input: { query: 'restart the ingest worker', k: 2, summarise: true } }),
    ctx,
  )) as Record<string, any>

  t.equal(out.query, 'restart the ingest worker')
  t.equal(out.query_source, 'input')
  t.equal(out.hits[0].title, 'Worker runbook')
  t.notOk(
    out.hits.some((h: { title: string }) => h.title === 'Their runbook'),
    "another tenant's document is not searched",
  )
  t.equal(out.hits[0].source, 'wiki/runbook')
  t.ok(out.hits[0].fts_rank === 1 && out.hits[0].vector_rank === 1)
  t.equal(out.summary_source, 'model')
  t.ok(out.summary.length > 0)
  // The offline provider extracts sentences: each sentence of the summary is one of a hit's.
  const sentences = (out.summary as string)
    .replace(/\[\d+\]( [^:]+:)?/g, '')
    .split(/(?<=\.)\s+/)
    .map((s) => s.trim())
    .filter(Boolean)
  const hitText = out.hits.map((h: { text: string }) => h.text).join(' ')
  for (const s of sentences) t.ok(hitText.includes(s), `from the hits: ${s}`)
  t.match(out.summary, /restart/)
  t.ok(llm.usage.prompt > 0, "the step's metered model was called")
  t.same(llm.modelsUsed, ['offline/offline-extractive'])
})
