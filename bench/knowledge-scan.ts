/**
 * The knowledge store's vector candidates without pgvector: the in-memory scan (src/stores/vector-scan.ts)
 * beside the `real[]` SQL it replaces, on PostgreSQL (DATABASE_URL), in one run, in a schema of its
 * own (dropped at the end). Prints ms per search for each and the ratio.
 *
 *   DATABASE_URL=postgres://… node --import @tapjs/typescript/import bench/knowledge-scan.ts --chunks 20000
 */
import { execSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { loadavg } from 'node:os'
import { parseArgs } from 'node:util'
import { HashingEmbedder } from '../src/llm/hashing-embedder.js'
import { openSql } from '../src/stores/open-sql.js'
import { SqlKnowledgeStore } from '../src/stores/sql-knowledge-store.js'
import { nearestParams, nearestSql } from '../src/stores/sql-vector-index.js'
import { VectorScan } from '../src/stores/vector-scan.js'

const { values: args } = parseArgs({
  options: { chunks: { type: 'string', default: '20000' }, searches: { type: 'string', default: '10' } },
})
const databaseUrl = process.env.DATABASE_URL
if (!databaseUrl) throw new Error('set DATABASE_URL')
const chunks = Number(args.chunks)
const searches = Number(args.searches)

const schema = `kscan_${randomBytes(4).toString('hex')}`
const sql = await openSql({ databaseUrl, dataDir: 'unused', schema, poolSize: 4 })
try {
  const store = await SqlKnowledgeStore.open(sql)
  const words = ['pump', 'valve', 'gauge', 'boiler', 'turbine', 'filter', 'sensor', 'relay', 'motor', 'belt', 'shaft', 'seal']
  // One chunk per document: short texts, so the chunk count is what is asked for.
  for (let i = 0; i < chunks; i += 500) {
    await store.ingest(
      'default',
      Array.from({ length: Math.min(500, chunks - i) }, (_, j) => {
        const n = i + j
        return { text: `Item ${n}: the ${words[n % 12]} on line ${n % 97} needs a ${words[(n * 7) % 12]} check every ${n % 11} weeks.` }
      }),
    )
  }
  const embedder = new HashingEmbedder()
  const queries = await embedder.embed(Array.from({ length: searches }, (_, i) => `${words[i % 12]} check on line ${i}`))
  const scan = new VectorScan(sql)
  await scan.nearest('default', embedder.id, queries[0]!, 50, 0.1, { wait: true }) // the first load, timed apart below
  const time = async (fn: (q: number[]) => Promise<unknown>) => {
    const started = performance.now()
    for (const q of queries) await fn(q)
    return (performance.now() - started) / queries.length
  }
  const loadStarted = performance.now()
  await new VectorScan(sql).nearest('default', embedder.id, queries[0]!, 50, 0.1, { wait: true })
  const loadMs = performance.now() - loadStarted
  const inSql = await time((q) =>
    sql.query(nearestSql('array', 'knowledge_chunks', 'chunk_id', 'default'), nearestParams('array', q, embedder.id, 50, 0.1, 'default')),
  )
  const inMemory = await time(async (q) => {
    if ((await scan.nearest('default', embedder.id, q, 50, 0.1)) === null) throw new Error('the copy went stale during the bench')
  })
  const commit = execSync('git rev-parse --short HEAD').toString().trim()
  console.log(
    `commit ${commit}, ${new Date().toISOString()}, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}, ${chunks} chunks of ${queries[0]!.length} dimensions`,
  )
  console.log('| path | ms per search |')
  console.log('|---|---|')
  console.log(`| SQL over real[] | ${inSql.toFixed(1)} |`)
  console.log(`| in-memory scan (version check included) | ${inMemory.toFixed(2)} |`)
  console.log(
    `| in-memory scan: first load of the copy | ${loadMs.toFixed(0)} (in the background, once and after each change; SQL answers meanwhile) |`,
  )
  console.log(`ratio SQL ÷ scan: ${(inSql / inMemory).toFixed(0)}×`)
} finally {
  await sql.query(`drop schema if exists "${schema}" cascade`)
  await sql.close()
}
