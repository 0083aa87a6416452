/**
 * Decomposition only: the task API without the task runner. Wired like src/app.ts's orchestrator
 * (same config, openSql, JobQueue with ORCHESTRATOR_QUEUES, SqlTaskStore, TaskService with group
 * commit, the HTTP app and the task routes with an in-memory rate limiter) except that nothing
 * works the queues, so the submitted tasks stay queued and only submission runs. Submitting through
 * it beside server.ts separates what the runner executing the tasks costs from HTTP + create.
 * Same protocol as server.ts: prints {"ready":true,"port":N,"pid":P}, exits on SIGTERM.
 */
import { AnswerKeys, CacheTier, Detector, RateLimiter } from '@ganglion/reflex'
import pino from 'pino'
import { createAuthenticator } from '../../src/auth/authenticator.js'
import { loadConfig } from '../../src/config/load.js'
import { createHttpApp } from '../../src/http/app.js'
import { routeLimiter } from '../../src/http/rate-limit.js'
import { Metrics } from '../../src/metrics.js'
import { JobQueue } from '../../src/orchestrator/queue/job-queue.js'
import { ORCHESTRATOR_QUEUES } from '../../src/orchestrator/runner/queues.js'
import type { TaskRunner } from '../../src/orchestrator/runner/task-runner.js'
import { registerTaskRoutes } from '../../src/orchestrator/task-routes.js'
import { TaskService } from '../../src/orchestrator/task-service.js'
import { MemoryCacheStore } from '../../src/stores/memory-cache-store.js'
import { MemoryRateLimitStore } from '../../src/stores/memory-rate-limit-store.js'
import { openSql } from '../../src/stores/open-sql.js'
import { SqlTaskStore } from '../../src/stores/sql-task-store.js'
import { TieredCacheStore } from '../../src/stores/tiered-cache-store.js'
import { countStatements, statementCounts } from './statement-counter.js'

// BENCH_STATEMENTS=1: as in server.ts.
if (process.env.BENCH_STATEMENTS === '1') {
  countStatements()
  process.on('SIGUSR2', () => process.stdout.write(`${JSON.stringify({ statements: statementCounts() })}\n`))
}

const config = loadConfig(process.env)
const log = pino({ level: 'silent' })
const detector = new Detector({ blockLevel: config.reflexBlockLevel })
const cacheTier = new CacheTier({ maxEntries: config.cacheMaxEntries, maxBytes: config.cacheMaxBytes })
const sql = await openSql({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
const queue = await JobQueue.start({ sql, queues: ORCHESTRATOR_QUEUES })
const store = new SqlTaskStore(sql)
const service = new TaskService({
  store,
  queue,
  detector,
  cache: new TieredCacheStore(new MemoryCacheStore(cacheTier), undefined, { log }),
  answerKeys: new AnswerKeys('a test secret of sixteen bytes'),
  taskTimeoutSeconds: config.taskTimeout,
  cacheTtlSeconds: config.cacheTtl,
  // No active-task cap: the benchmark's tasks pile up unrun.
  quotas: {
    activePerTenant: 0,
    defaultMaxTokens: config.taskDefaultMaxTokens,
    maxTokens: config.taskMaxTokens,
    model: 'offline-extractive',
    price: undefined,
  },
})
const metrics = new Metrics({ detector, cacheTier, queueDepths: async () => [] })
const app = createHttpApp({
  name: 'orchestrator',
  bodyLimitBytes: config.bodyLimitBytes,
  logger: log,
  trustProxy: config.trustProxy,
  onResponse: metrics.httpObserver('orchestrator'),
  // As `npm start` on loopback: auth off, the configured limits.
  authenticate: createAuthenticator({ mode: 'off' }),
  limit: routeLimiter(new MemoryRateLimitStore(new RateLimiter()), {
    perIp: config.rateLimitPerIp,
    perIpReads: config.rateLimitReadsPerIp,
    perPrincipal: config.rateLimitPerUser,
    perPrincipalReads: config.rateLimitReadsPerUser,
    windowMs: 60_000,
  }),
})
const noRunner: TaskRunner = { abort() {}, stop: async () => {} }
registerTaskRoutes(app, {
  service,
  store,
  runner: noRunner,
  metrics,
})
const port = await app.listen(config.port, config.host)
process.stdout.write(`${JSON.stringify({ ready: true, port, pid: process.pid })}\n`)

const close = async (): Promise<void> => {
  setTimeout(() => process.exit(0), 5_000).unref()
  await app.close()
  await service.drain()
  await queue.stop({ graceful: false, timeoutMs: 1000 })
  await sql.close()
  process.exit(0)
}
process.on('SIGTERM', () => void close())
process.on('SIGINT', () => void close())
setTimeout(() => process.exit(2), Number(process.env.BENCH_MAX_SECONDS ?? 300) * 1000).unref()
setInterval(() => {}, 60_000)
