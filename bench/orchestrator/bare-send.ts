/**
 * The reference for submission throughput: pg-boss's own `send`, nothing else, in its own process.
 * `--concurrency` loops each await one `send` at a time (the same number of requests in flight as
 * autocannon's connections), for `--duration` seconds, on a fresh database (PostgreSQL via
 * DATABASE_URL with pg-boss's own pool of 10, as the service has; PGlite in memory otherwise).
 *
 * Goes through our JobQueue (same pg-boss options, same queue definitions: `task.run` with
 * `notify: true`) so the only difference from the service is everything the service does around
 * the send. `--mode tx` wraps each send in one of our transactions (`sql.transaction` + `send(…,
 * {tx})`), the shape of the service's create; `--mode create` calls the service's own
 * `TaskService.create` (reflex check, then group commit: concurrent tasks' rows, events, task.run and
 * task.timeout jobs in shared transactions) with no HTTP and no task runner consuming; `--mode create1`
 * the same with group commit off (one transaction per task). All are decomposition rows, not the reference.
 *
 * Prints one JSON line: {sent, seconds, rate, latency_ms: {p50, p90, p99, max}, cpu_seconds}.
 *
 *   DATABASE_URL=postgres://… node --import @tapjs/typescript/import bench/orchestrator/bare-send.ts --concurrency 32 --duration 10
 */

import { randomUUID } from 'node:crypto'
import { AnswerKeys, CacheTier, Detector } from '@ganglion/reflex'
import { JobQueue } from '../../src/orchestrator/queue/job-queue.js'
import { ORCHESTRATOR_QUEUES, TASK_RUN } from '../../src/orchestrator/runner/queues.js'
import { TaskService } from '../../src/orchestrator/task-service.js'
import { MemoryCacheStore } from '../../src/stores/memory-cache-store.js'
import { openSql } from '../../src/stores/open-sql.js'
import { SqlTaskStore } from '../../src/stores/sql-task-store.js'
import { TieredCacheStore } from '../../src/stores/tiered-cache-store.js'
import { arg, summarise } from './common.js'

/** Benchmarks create tasks in bulk: no active-task cap. */
const NO_CAP = { activePerTenant: 0, defaultMaxTokens: 20_000, maxTokens: 200_000, model: 'offline-extractive', price: undefined }

const concurrency = Number(arg('concurrency', '32'))
const durationMs = Number(arg('duration', '10')) * 1000
const mode = arg('mode', 'plain')
const warmupMs = Number(arg('warmup', '1')) * 1000

const sql = await openSql({ databaseUrl: process.env.DATABASE_URL, dataDir: 'memory://' })
const queue = await JobQueue.start({ sql, queues: ORCHESTRATOR_QUEUES })

const detector = new Detector()
const service = new TaskService({
  store: new SqlTaskStore(sql),
  queue,
  detector,
  cache: new TieredCacheStore(new MemoryCacheStore(new CacheTier()), undefined),
  answerKeys: new AnswerKeys('a test secret of sixteen bytes'),
  taskTimeoutSeconds: 300,
  cacheTtlSeconds: 3600,
  quotas: NO_CAP,
})
// The same service without group commit: each create its own transaction (one-statement insert).
const serviceOneByOne = new TaskService({
  store: new SqlTaskStore(sql),
  queue,
  detector,
  cache: new TieredCacheStore(new MemoryCacheStore(new CacheTier()), undefined),
  answerKeys: new AnswerKeys('a test secret of sixteen bytes'),
  taskTimeoutSeconds: 300,
  cacheTtlSeconds: 3600,
  quotas: NO_CAP,
  batch: false,
})
let counter = 0
const sends: Record<string, () => Promise<unknown>> = {
  plain: () => queue.send(TASK_RUN, { task_id: randomUUID() }),
  tx: () => sql.transaction((tx) => queue.send(TASK_RUN, { task_id: randomUUID() }, { tx })),
  create: () =>
    service.create(
      { goal: `bench create ${++counter}: summarise the latest release notes of project ${counter % 977}` },
      { tenant: 'default' },
    ),
  create1: () =>
    serviceOneByOne.create(
      { goal: `bench create ${++counter}: summarise the latest release notes of project ${counter % 977}` },
      { tenant: 'default' },
    ),
}
const chosen = sends[mode]
if (!chosen) throw new Error(`--mode plain|tx|create|create1, not ${mode}`)
const send: () => Promise<unknown> = chosen

async function loop(until: number, latencies: number[] | null): Promise<number> {
  let n = 0
  while (Date.now() < until) {
    const t0 = performance.now()
    await send()
    latencies?.push(performance.now() - t0)
    n++
  }
  return n
}

// Warm up (JIT, pools, queue cache), then measure.
await Promise.all(Array.from({ length: concurrency }, () => loop(Date.now() + warmupMs, null)))
const latencies: number[] = []
const cpu0 = process.cpuUsage()
const t0 = performance.now()
const until = Date.now() + durationMs
const counts = await Promise.all(Array.from({ length: concurrency }, () => loop(until, latencies)))
const seconds = (performance.now() - t0) / 1000
const cpu = process.cpuUsage(cpu0)
const sent = counts.reduce((a, b) => a + b, 0)
const s = summarise(latencies)
process.stdout.write(
  `${JSON.stringify({
    mode,
    concurrency,
    sent,
    seconds,
    rate: sent / seconds,
    latency_ms: { p50: s.p50, p90: s.p90, p99: s.p99, max: s.max },
    cpu_seconds: (cpu.user + cpu.system) / 1e6,
  })}\n`,
)
await queue.stop({ graceful: false, timeoutMs: 1000 })
await sql.close()
process.exit(0)
