/**
 * The composition root: the one place that picks adapters (PGlite or PostgreSQL, Redis or not)
 * and wires services together. `npm start` runs every service in one process on embedded
 * defaults; `ganglion reflex` and `ganglion orchestrator` run one each.
 *
 * ```ts
 * const running = await start(loadConfig(), { reflex: true, orchestrator: true })
 * await running.close()
 * ```
 */

import { createRequire } from 'node:module'
import { CacheTier, CheckEndpoint, Detector, RateLimiter } from '@ganglion/reflex'
import { startArmService } from './app-arm-service.js'
import { openArms } from './app-arms.js'
import type { BuiltinArm } from './arms/contract.js'
import { type Authenticate, type CredentialVerifier, createAuthenticator } from './auth/authenticator.js'
import { authStatus } from './auth/principal.js'
import type { Config } from './config/load.js'
import { piiIn } from './cut-clear-of-pii.js'
import { createHttpApp, type HttpApp } from './http/app.js'
import { registerDocsRoutes } from './http/docs-routes.js'
import type { RateLimits } from './http/rate-limit.js'
import { createLogger, type Logger } from './log.js'
import { Metrics } from './metrics.js'
import { registerArmsRoutes } from './orchestrator/arms-routes.js'
import { registerEventsRoute } from './orchestrator/events-route.js'
import { registerKnowledgeRoutes } from './orchestrator/knowledge-routes.js'
import { JobQueue } from './orchestrator/queue/job-queue.js'
import { startRetention } from './orchestrator/retention.js'
import { armPlanner } from './orchestrator/runner/arm-planner.js'
import { ArmStepRunner } from './orchestrator/runner/arm-step-runner.js'
import type { CallArmDeps } from './orchestrator/runner/call-arm.js'
import { ORCHESTRATOR_QUEUES } from './orchestrator/runner/queues.js'
import { startTaskRunner, type TaskRunner, type TaskRunnerDeps } from './orchestrator/runner/task-runner.js'
import { registerStatusRoutes } from './orchestrator/status-routes.js'
import { registerTaskRoutes } from './orchestrator/task-routes.js'
import { TaskService } from './orchestrator/task-service.js'
import { registerReflexRoutes } from './reflex/service.js'
import { limitSql, onUse } from './stores/limited-sql.js'
import { MemoryCacheStore } from './stores/memory-cache-store.js'
import { MemoryRateLimitStore } from './stores/memory-rate-limit-store.js'
import { openSql } from './stores/open-sql.js'
import type { RateLimitStore } from './stores/rate-limit-store.js'
import type { RedisConnection } from './stores/redis-client.js'
import type { Sql } from './stores/sql.js'
import { SqlTaskStore } from './stores/sql-task-store.js'
import { TieredCacheStore } from './stores/tiered-cache-store.js'

export const VERSION: string = (createRequire(import.meta.url)('../package.json') as { version: string }).version

export interface Which {
  reflex?: boolean
  orchestrator?: boolean
  /** One built-in arm as its own service (`ganglion arm <name> --port N`). */
  arm?: { name: BuiltinArm; port: number }
}

export interface StartOptions {
  /**
   * Plans and runs the tasks with these instead of the planner arm and the arms: lifecycle tests
   * pass a scripted step runner and planner. Unset, every task goes to the arms.
   */
  scripted?: Pick<TaskRunnerDeps, 'steps' | 'planner'>
  /**
   * Credential verifiers besides the configured ones, asked after ADMIN_TOKEN (src/auth/authenticator.ts):
   * tests map their own tokens to principals of the tenants and roles they need.
   */
  verifiers?: readonly CredentialVerifier[]
}

export interface Running {
  /** Ports actually bound, by service. */
  ports: { reflex?: number; orchestrator?: number; arm?: number }
  log: Logger
  close(): Promise<void>
}

/** What every service in the process shares: one detector, one cache, one limiter. */
interface Shared {
  detector: Detector
  /** The in-process cache tier, inside `cache`. */
  cacheTier: CacheTier
  cache: TieredCacheStore
  limiter: RateLimitStore
  redis: RedisConnection | undefined
  limits: RateLimits
  /** The check route's one native call; only when the limiter and the cache are in this process alone. */
  endpoint: CheckEndpoint | undefined
  /** Who is calling, for every route that needs to know (src/auth/authenticator.ts). */
  authenticate: Authenticate
}

async function openShared(config: Config, log: Logger, detector: Detector, options: StartOptions): Promise<Shared> {
  const cacheTier = new CacheTier({ maxEntries: config.cacheMaxEntries, maxBytes: config.cacheMaxBytes })
  const rateLimiter = new RateLimiter()
  const local = new MemoryCacheStore(cacheTier)
  const localLimiter = new MemoryRateLimitStore(rateLimiter)
  let redis: RedisConnection | undefined
  let cache = new TieredCacheStore(local, undefined, { log })
  let limiter: RateLimitStore = localLimiter
  if (config.redisUrl !== undefined) {
    // Loaded only when configured, so the embedded mode never loads ioredis.
    const { connectRedis } = await import('./stores/redis-client.js')
    const { RedisCacheStore } = await import('./stores/redis-cache-store.js')
    const { RedisRateLimitStore } = await import('./stores/redis-rate-limit-store.js')
    redis = await connectRedis(config.redisUrl, { log, connectionName: 'ganglion' })
    cache = new TieredCacheStore(local, new RedisCacheStore(redis), { log })
    limiter = new RedisRateLimitStore(redis, localLimiter, { log })
  }
  const limits = { perIp: config.rateLimitPerIp, perUser: config.rateLimitPerUser, windowMs: 60_000 }
  // With Redis, a check must consult the shared tier and the global buckets: no native shortcut.
  const endpoint =
    redis === undefined
      ? new CheckEndpoint({
          detector,
          cache: cacheTier,
          limiter: rateLimiter,
          perUser: { capacity: limits.perUser, windowMs: limits.windowMs },
        })
      : undefined
  const authenticate = createAuthenticator({
    mode: config.auth,
    ...(config.adminToken !== undefined && { adminToken: config.adminToken }),
    ...(options.verifiers !== undefined && { verifiers: options.verifiers }),
  })
  if (config.authOffInTheOpen) {
    log.warn({ host: config.host }, `AUTH=off on ${config.host}: every client that reaches this address may do anything, as an admin`)
  }
  return { detector, cacheTier, cache, limiter, redis, limits, endpoint, authenticate }
}

function httpApp(name: string, config: Config, log: Logger, authenticate?: Authenticate, metrics?: Metrics): HttpApp {
  return createHttpApp({
    name,
    bodyLimitBytes: config.bodyLimitBytes,
    logger: log,
    trustProxy: config.trustProxy,
    ...(authenticate && { authenticate }),
    ...(metrics && { onResponse: metrics.httpObserver(name) }),
  })
}

export async function start(config: Config, which: Which, logger?: Logger, options: StartOptions = {}): Promise<Running> {
  const startedAt = new Date()
  const detector = new Detector({ blockLevel: config.reflexBlockLevel })
  // Personal data never reaches the logs: every line passes through the same redaction as goals.
  // A line too long to log whole is cut first, around the personal data the detector finds (log.ts).
  const redactor = {
    redact: (line: string) => detector.redact(line).redacted_text,
    find: piiIn(detector),
  }
  const log = logger ?? createLogger({ name: 'ganglion', level: config.logLevel, redactor })
  // An arm alone uses neither the cache nor the rate limits: it opens no Redis connection.
  const shared = which.reflex || which.orchestrator ? await openShared(config, log, detector, options) : undefined
  const closers: Array<() => Promise<void>> = []
  const ports: Running['ports'] = {}
  const closeAll = async () => {
    for (const close of closers.reverse()) {
      try {
        await close()
      } catch (err) {
        log.warn({ err }, 'error while shutting down')
      }
    }
    await shared?.redis?.close()
  }

  try {
    if (which.reflex && shared) {
      const app = httpApp('reflex', config, log, shared.authenticate)
      registerReflexRoutes(app, {
        ...shared,
        cacheTtlSeconds: config.cacheTtl,
        hashSalt: config.redactionSalt,
        startedAt,
        version: VERSION,
        auth: authStatus(config.auth, config.authOffInTheOpen),
      })
      ports.reflex = await app.listen(config.reflexPort, config.host)
      closers.push(() => app.close())
      log.info({ port: ports.reflex }, 'reflex layer listening')
    }
    if (which.arm) {
      const app = httpApp(`arm-${which.arm.name}`, config, log)
      const started = await startArmService(config, which.arm.name, which.arm.port, { detector, log, version: VERSION, app })
      closers.push(...started.closers)
      ports.arm = started.port
    }
    if (which.orchestrator && shared) {
      ports.orchestrator = await startOrchestrator(config, log, shared, startedAt, closers, options)
      log.info({ port: ports.orchestrator, database: config.databaseUrl ? 'postgres' : 'pglite' }, 'orchestrator listening')
    }
  } catch (err) {
    await closeAll()
    throw err
  }
  return { ports, log, close: closeAll }
}

/** The runner of an API-only orchestrator: nothing runs here, so there is nothing to stop. */
const API_ONLY: TaskRunner = { abort() {}, stop: async () => {} }
/** The API counts as busy for this long after its last statement. */
const API_QUIET_MS = 1000

async function startOrchestrator(
  config: Config,
  log: Logger,
  shared: Shared,
  startedAt: Date,
  closers: Array<() => Promise<void>>,
  options: StartOptions,
): Promise<number> {
  const sql: Sql = await openSql({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  closers.push(() => sql.close())
  const queue = await JobQueue.start({ sql, queues: ORCHESTRATOR_QUEUES, onError: (err) => log.error({ err }, 'job queue error') })
  let queueRunning = true
  closers.push(async () => {
    queueRunning = false
    await queue.stop({ graceful: true, timeoutMs: 10_000 })
  })
  // The runner's share of the pool: while the API is busy (a statement in the last second) it never
  // holds more than RUNNER_CONNECTIONS at once, so submissions do not queue behind planning and
  // steps; while the API is idle, RUNNER_CONNECTIONS_IDLE, to work a backlog off sooner.
  let apiUsedAt = 0
  const store = new SqlTaskStore(
    onUse(sql, () => {
      apiUsedAt = Date.now()
    }),
  )
  const runnerSql = limitSql(sql, () => (Date.now() - apiUsedAt < API_QUIET_MS ? config.runnerConnections : config.runnerConnectionsIdle))
  const runnerStore = new SqlTaskStore(runnerSql)
  const stopRetention = startRetention(sql, log)
  closers.push(async () => stopRetention())
  const metrics = new Metrics({
    detector: shared.detector,
    cacheTier: shared.cacheTier,
    // pg-boss's counts as of its last maintenance pass: cheap enough for every scrape.
    queueDepths: async () => (await queue.pgBoss.getQueues()).map((q) => ({ queue: q.name, queued: q.readyCount, active: q.activeCount })),
  })
  const arms = await openArms(config, { sql, detector: shared.detector, version: VERSION })
  closers.push(() => arms.close())
  const callDeps: CallArmDeps = {
    arms: arms.registry,
    tokens: arms.issuer,
    store: runnerStore,
    stepTimeoutMs: config.stepTimeout * 1000,
    metrics,
  }
  const service = new TaskService({
    store,
    queue,
    detector: shared.detector,
    cache: shared.cache,
    taskTimeoutSeconds: config.taskTimeout,
    cacheTtlSeconds: config.cacheTtl,
  })
  // After the HTTP server closes (closers run in reverse), submissions still committing finish.
  closers.push(() => service.drain())
  // TASK_WORKERS=0: this process serves the API only; tasks it accepts are run by orchestrators
  // that have workers (the task.run NOTIFY wakes them). A cancel it takes is seen by their watchers.
  const runner: TaskRunner =
    config.taskWorkers === 0
      ? API_ONLY
      : await startTaskRunner(
          {
            store: runnerStore,
            queue,
            sql: runnerSql,
            detector: shared.detector,
            maxParallelArms: config.maxParallelArms,
            ...(options.scripted ?? {
              steps: new ArmStepRunner(callDeps),
              planner: armPlanner({ ...callDeps, detector: shared.detector }),
            }),
            onCompleted: async (task) => {
              await service.remember(task)
              // Memory is an aid to planning: a failure to store an episode must not fail the task.
              await arms.remember(task).catch((err: unknown) => log.warn({ err, task_id: task.task_id }, 'episodic memory: store failed'))
            },
            metrics,
            log,
          },
          { stepTimeoutSeconds: config.stepTimeout, taskConcurrency: config.taskWorkers, stepConcurrency: config.stepWorkers },
        )
  closers.push(() => runner.stop())

  const app = httpApp('orchestrator', config, log, shared.authenticate, metrics)
  registerTaskRoutes(app, { service, store, runner, limiter: shared.limiter, limits: shared.limits, metrics })
  registerEventsRoute(app, store)
  registerArmsRoutes(app, {
    registry: arms.registry,
    issuer: arms.issuer,
  })
  registerKnowledgeRoutes(app, { knowledge: arms.knowledge })
  registerStatusRoutes(app, {
    sql,
    cacheHealth: () => shared.cache.health(),
    queueRunning: () => queueRunning,
    metrics,
    version: VERSION,
    startedAt,
    auth: authStatus(config.auth, config.authOffInTheOpen),
  })
  registerDocsRoutes(app)
  const port = await app.listen(config.port, config.host)
  closers.push(() => app.close())
  return port
}
