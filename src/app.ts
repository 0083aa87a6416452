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
import { AnswerKeys, CacheTier, CheckEndpoint, Detector, RateLimiter } from '@ganglion/reflex'
import { startArmService } from './app-arm-service.js'
import { openArms } from './app-arms.js'
import type { BuiltinArm } from './arms/contract.js'
import { apiKeyVerifier } from './auth/api-keys.js'
import { type Authenticate, type CredentialVerifier, createAuthenticator } from './auth/authenticator.js'
import { createJwtVerifier } from './auth/jwt-verifier.js'
import { authStatus } from './auth/principal.js'
import { type Config, ConfigError } from './config/load.js'
import { piiIn } from './cut-clear-of-pii.js'
import { createHttpApp, type HttpApp } from './http/app.js'
import { registerDocsRoutes } from './http/docs-routes.js'
import { ensurePortFree } from './http/port-in-use.js'
import { type RouteLimiter, routeLimiter } from './http/rate-limit.js'
import { priceOf } from './llm/prices.js'
import { createLogger, type Logger } from './log.js'
import { Metrics, registerMetricsRoutes } from './metrics.js'
import { registerApiKeyRoutes } from './orchestrator/api-key-routes.js'
import { registerArmsRoutes } from './orchestrator/arms-routes.js'
import { registerDeletionRoutes } from './orchestrator/deletion-routes.js'
import { EventFeed } from './orchestrator/event-feed.js'
import { registerEventsRoute } from './orchestrator/events-route.js'
import { registerKnowledgeRoutes } from './orchestrator/knowledge-routes.js'
import { JobQueue } from './orchestrator/queue/job-queue.js'
import { reflexSelfCheck } from './orchestrator/reflex-self-check.js'
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
import type { RedisConnection, RedisHealth } from './stores/redis-client.js'
import type { Sql } from './stores/sql.js'
import { SqlApiKeyStore } from './stores/sql-api-key-store.js'
import { SqlTaskStore } from './stores/sql-task-store.js'
import { forgetVectorsOf } from './stores/task-deletion.js'
import { TieredCacheStore } from './stores/tiered-cache-store.js'
import { startTracing, type Tracing } from './telemetry/tracing.js'
import { checkWebhookUrl, webhookAddressPolicy } from './webhooks/address.js'
import { queueOnFinal, startDeliveries, WEBHOOK_QUEUES } from './webhooks/queue.js'
import { registerWebhookRoutes } from './webhooks/routes.js'
import { secretBox } from './webhooks/secret-box.js'
import { SqlWebhookStore } from './webhooks/sql-webhook-store.js'

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
  redis: RedisConnection | undefined
  /**
   * The Redis of the rate-limit buckets when it is not `redis` (RATE_LIMIT_REDIS_URL names another),
   * reported apart by the health routes; with one URL for both, `redis` holds the buckets too.
   */
  limitsRedis: RedisConnection | undefined
  /** The rate limit of every route that needs a principal (src/http/rate-limit.ts). */
  limit: RouteLimiter
  /** Where tenants' stored answers live in `cache`. */
  answerKeys: AnswerKeys
  /** The check route's one native call; only when the cache is in this process alone. */
  endpoint: CheckEndpoint | undefined
  /** Who is calling, for every route that needs to know (src/auth/authenticator.ts). */
  authenticate: Authenticate
}

async function openShared(config: Config, log: Logger, detector: Detector, sql: Sql | undefined, options: StartOptions): Promise<Shared> {
  const cacheTier = new CacheTier({ maxEntries: config.cacheMaxEntries, maxBytes: config.cacheMaxBytes })
  const rateLimiter = new RateLimiter()
  const local = new MemoryCacheStore(cacheTier)
  const localLimiter = new MemoryRateLimitStore(rateLimiter)
  let redis: RedisConnection | undefined
  let limitsRedis: RedisConnection | undefined
  let cache = new TieredCacheStore(local, undefined, { log })
  let limiter: RateLimitStore = localLimiter
  if (config.redisUrl !== undefined || config.rateLimitRedisUrl !== undefined) {
    // Loaded only when configured, so the embedded mode never loads ioredis.
    const { connectRedis } = await import('./stores/redis-client.js')
    const { RedisCacheStore } = await import('./stores/redis-cache-store.js')
    const { RedisRateLimitStore } = await import('./stores/redis-rate-limit-store.js')
    if (config.redisUrl !== undefined) {
      redis = await connectRedis(config.redisUrl, { log, connectionName: 'ganglion' })
      cache = new TieredCacheStore(local, new RedisCacheStore(redis), { log })
    }
    if (config.rateLimitRedisUrl !== undefined) {
      // A Redis of their own keeps the buckets out of reach of the cache's eviction policy.
      if (config.rateLimitRedisUrl !== config.redisUrl) {
        limitsRedis = await connectRedis(config.rateLimitRedisUrl, { log, connectionName: 'ganglion-limits' })
      }
      const buckets = limitsRedis ?? redis
      if (buckets !== undefined) limiter = new RedisRateLimitStore(buckets, localLimiter, { log })
    }
  }
  const limit = routeLimiter(limiter, {
    perIp: config.rateLimitPerIp,
    perIpReads: config.rateLimitReadsPerIp,
    perPrincipal: config.rateLimitPerUser,
    perPrincipalReads: config.rateLimitReadsPerUser,
    windowMs: 60_000,
  })
  const answerKeys = new AnswerKeys(config.cacheKeySecret)
  // With Redis, a check must consult the shared tier: no native shortcut.
  const endpoint = redis === undefined ? new CheckEndpoint({ detector, cache: cacheTier, keys: answerKeys }) : undefined
  const authenticate = authenticatorOf(config, log, sql, options)
  if (config.authOffInTheOpen) {
    log.warn({ host: config.host }, `AUTH=off on ${config.host}: every client that reaches this address may do anything, as an admin`)
  }
  return { detector, cacheTier, cache, redis, limitsRedis, limit, answerKeys, endpoint, authenticate }
}

/** Who is calling: ADMIN_TOKEN, the given verifiers, API keys (with a database), identity-provider tokens. */
function authenticatorOf(config: Config, log: Logger, sql: Sql | undefined, options: StartOptions): Authenticate {
  // API keys live in the database, so one key works on every service that shares it.
  const verifiers: CredentialVerifier[] = [...(options.verifiers ?? [])]
  if (sql !== undefined) {
    const onError = (err: unknown) => log.warn({ err }, 'api keys: recording last use failed')
    verifiers.push(apiKeyVerifier(new SqlApiKeyStore(sql), { onError }))
  }
  if (config.jwt !== undefined) verifiers.push(createJwtVerifier(config.jwt, { log }))
  return createAuthenticator({
    mode: config.auth,
    ...(config.adminToken !== undefined && { adminToken: config.adminToken }),
    verifiers,
  })
}

/** The health of the limits' own Redis, for the health routes; nothing when the buckets share `redis`. */
function limitsHealth(shared: Shared): { limitsHealth?: () => RedisHealth } {
  const limits = shared.limitsRedis
  return limits === undefined ? {} : { limitsHealth: () => limits.health() }
}

function httpApp(
  name: string,
  config: Config,
  log: Logger,
  shared?: Pick<Shared, 'authenticate'> & Partial<Pick<Shared, 'limit'>>,
  metrics?: Metrics,
): HttpApp {
  return createHttpApp({
    name,
    bodyLimitBytes: config.bodyLimitBytes,
    logger: log,
    trustProxy: config.trustProxy,
    ...(shared && { authenticate: shared.authenticate }),
    ...(shared?.limit && { limit: shared.limit }),
    streams: { perCaller: config.streamsPerUser, total: config.streamsTotal },
    ...(metrics && { onResponse: metrics.httpObserver(name) }),
  })
}

export async function start(config: Config, which: Which, logger?: Logger, options: StartOptions = {}): Promise<Running> {
  const startedAt = new Date()
  const detector = new Detector({
    blockLevel: config.reflexBlockLevel,
    piiThreshold: config.reflexPiiThreshold,
    ...(config.reflexInjectionThreshold !== undefined && { injectionThreshold: config.reflexInjectionThreshold }),
  })
  // Personal data never reaches the logs: every line passes through the same redaction as goals.
  // A line too long to log whole is cut first, around the personal data the detector finds (log.ts).
  const redactor = {
    redact: (line: string) => detector.redact(line).redacted_text,
    find: piiIn(detector),
  }
  const log = logger ?? createLogger({ name: 'ganglion', level: config.logLevel, redactor })
  // Before the database: a second service on a live one's ports stops here, its PGlite unopened.
  if (which.reflex) await ensurePortFree(config.reflexPort, config.host)
  if (which.orchestrator) await ensurePortFree(config.port, config.host)
  if (which.arm) await ensurePortFree(which.arm.port, config.host)
  const tracing = openTracing(config, which)
  let sql: Sql | undefined
  try {
    sql = await openDatabase(config, which, log)
  } catch (err) {
    await tracing?.stop()
    throw err
  }
  // An arm alone uses neither the cache nor the rate limits: it opens no Redis connection.
  let shared: Shared | undefined
  try {
    shared = which.reflex || which.orchestrator ? await openShared(config, log, detector, sql, options) : undefined
  } catch (err) {
    await sql?.close()
    await tracing?.stop()
    throw err
  }
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
    await shared?.limitsRedis?.close()
    await sql?.close()
    // Last: the spans of the shutdown itself are flushed too.
    await tracing?.stop()
  }

  try {
    if (which.reflex && shared) {
      const metrics = new Metrics({ detector: shared.detector, cacheTier: shared.cacheTier, cache: shared.cache })
      const app = httpApp('reflex', config, log, shared, metrics)
      registerMetricsRoutes(app, metrics)
      registerReflexRoutes(app, {
        ...shared,
        cacheTtlSeconds: config.cacheTtl,
        hashSalt: config.redactionSalt,
        startedAt,
        version: VERSION,
        auth: authStatus(config.auth, config.authOffInTheOpen),
        ...limitsHealth(shared),
      })
      ports.reflex = await app.listen(config.reflexPort, config.host)
      closers.push(() => app.close())
      log.info({ port: ports.reflex }, 'reflex layer listening')
    }
    if (which.arm) {
      // The arm's own routes take capability tokens; its metrics, the credentials of the other services.
      const metrics = new Metrics({ detector })
      const app = httpApp(`arm-${which.arm.name}`, config, log, { authenticate: authenticatorOf(config, log, sql, options) }, metrics)
      registerMetricsRoutes(app, metrics)
      const started = await startArmService(config, which.arm.name, which.arm.port, { detector, log, version: VERSION, app })
      closers.push(...started.closers)
      ports.arm = started.port
    }
    if (which.orchestrator && shared && sql) {
      ports.orchestrator = await startOrchestrator(config, log, shared, sql, startedAt, closers, options)
      log.info({ port: ports.orchestrator, database: config.databaseUrl ? 'postgres' : 'pglite' }, 'orchestrator listening')
    }
  } catch (err) {
    await closeAll()
    throw err
  }
  return { ports, log, close: closeAll }
}

/**
 * Tracing when an OTLP endpoint is configured (docs/observability.md). The service name is
 * OTEL_SERVICE_NAME, else the one service the process runs (`ganglion-orchestrator`,
 * `ganglion-reflex`, `ganglion-arm-<name>`), else `ganglion` for several at once.
 */
function openTracing(config: Config, which: Which): Tracing | undefined {
  if (config.otlpTracesEndpoint === undefined) return undefined
  const names = [
    ...(which.orchestrator ? ['ganglion-orchestrator'] : []),
    ...(which.reflex ? ['ganglion-reflex'] : []),
    ...(which.arm ? [`ganglion-arm-${which.arm.name}`] : []),
  ]
  const serviceName = config.otelServiceName ?? (names.length === 1 ? names[0]! : 'ganglion')
  return startTracing({ endpoint: config.otlpTracesEndpoint, serviceName, serviceVersion: VERSION })
}

/**
 * The database of the process, opened once and shared: the orchestrator's stores, and the API
 * keys every service with AUTH=required verifies. PGlite lives in one process, so a reflex layer
 * that checks keys apart from the orchestrator needs the PostgreSQL they share; without one it
 * may still take identity-provider tokens (and ADMIN_TOKEN), but no API key.
 */
async function openDatabase(config: Config, which: Which, log: Logger): Promise<Sql | undefined> {
  // An arm alone checks API keys only on its metrics, and only in a PostgreSQL it is given.
  if (which.arm !== undefined && !which.orchestrator && !which.reflex) {
    if (config.auth !== 'required') return undefined
    if (config.databaseUrl === undefined) {
      log.warn('no DATABASE_URL: the arm service takes ADMIN_TOKEN and identity-provider tokens on /metrics, but no API key')
      return undefined
    }
    return openSql({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
  }
  const checksKeys = which.reflex === true && config.auth === 'required'
  if (!which.orchestrator && !checksKeys) return undefined
  if (!which.orchestrator && config.databaseUrl === undefined) {
    if (config.jwt !== undefined) {
      log.warn('no DATABASE_URL: the reflex layer takes identity-provider tokens and ADMIN_TOKEN, but no API key')
      return undefined
    }
    throw new ConfigError([
      'AUTH=required: the reflex layer checks API keys in the database, and without the orchestrator in this process ' +
        'that must be a shared PostgreSQL: set DATABASE_URL, or AUTH_JWKS_URL for identity-provider tokens alone ' +
        '(or run both with `ganglion start`, or set AUTH=off)',
    ])
  }
  return openSql({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
}

/** The runner of an API-only orchestrator: nothing runs here, so there is nothing to stop. */
const API_ONLY: TaskRunner = { abort() {}, stop: async () => {} }
/** The API counts as busy for this long after its last statement. */
const API_QUIET_MS = 1000

async function startOrchestrator(
  config: Config,
  log: Logger,
  shared: Shared,
  sql: Sql,
  startedAt: Date,
  closers: Array<() => Promise<void>>,
  options: StartOptions,
): Promise<number> {
  const queue = await JobQueue.start({
    sql,
    queues: [...ORCHESTRATOR_QUEUES, ...WEBHOOK_QUEUES],
    onError: (err) => log.error({ err }, 'job queue error'),
  })
  let queueRunning = true
  closers.push(async () => {
    queueRunning = false
    await queue.stop({ graceful: true, timeoutMs: 10_000 })
  })
  // The runner's share of the pool: while the API is busy (a statement in the last second) it never
  // holds more than RUNNER_CONNECTIONS at once, so submissions do not queue behind planning and
  // steps; while the API is idle, RUNNER_CONNECTIONS_IDLE, to work a backlog off sooner.
  let apiUsedAt = 0
  const apiSql = onUse(sql, () => {
    apiUsedAt = Date.now()
  })
  const runnerSql = limitSql(sql, () => (Date.now() - apiUsedAt < API_QUIET_MS ? config.runnerConnections : config.runnerConnectionsIdle))
  // A task's final status and its webhook deliveries commit together (docs/webhooks.md).
  const secrets = secretBox(config.webhookSecretKey)
  const webhooks = new SqlWebhookStore(apiSql, secrets)
  const webhookPolicy = webhookAddressPolicy(config.webhookAllowPrivate)
  const onFinal = queueOnFinal(webhooks, queue)
  const store = new SqlTaskStore(apiSql, { onFinal })
  const runnerStore = new SqlTaskStore(runnerSql, { onFinal })
  const metrics = new Metrics({
    detector: shared.detector,
    cacheTier: shared.cacheTier,
    cache: shared.cache,
    // pg-boss's counts as of its last maintenance pass: cheap enough for every scrape.
    queueDepths: async () => (await queue.pgBoss.getQueues()).map((q) => ({ queue: q.name, queued: q.readyCount, active: q.activeCount })),
  })
  const arms = await openArms(config, { sql, detector: shared.detector, version: VERSION, log })
  closers.push(() => arms.close())
  const stopRetention = startRetention(sql, log, {
    taskRetentionDays: config.taskRetentionDays,
    forgetVectors: forgetVectorsOf(arms.memory),
  })
  closers.push(async () => stopRetention())
  const price = priceOf(arms.llm.provider, arms.llm.model, config.llmPrices)
  const callDeps: CallArmDeps = {
    arms: arms.registry,
    tokens: arms.issuer,
    store: runnerStore,
    stepTimeoutMs: config.stepTimeout * 1000,
    metrics,
    price,
    detector: shared.detector,
    log,
    model: `${arms.llm.provider}/${arms.llm.model}`,
  }
  const service = new TaskService({
    store,
    queue,
    detector: shared.detector,
    cache: shared.cache,
    answerKeys: shared.answerKeys,
    taskTimeoutSeconds: config.taskTimeout,
    cacheTtlSeconds: config.cacheTtl,
    quotas: {
      activePerTenant: config.tasksActivePerTenant,
      defaultMaxTokens: config.taskDefaultMaxTokens,
      maxTokens: config.taskMaxTokens,
      model: arms.llm.model,
      price,
    },
    webhooks: {
      check: (url, field) => checkWebhookUrl(url, field, webhookPolicy),
      save: (tx, taskId, url) => webhooks.saveTaskUrl(tx, taskId, url),
    },
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
  if (config.taskWorkers > 0) {
    const closeDeliveries = await startDeliveries({
      sql: runnerSql,
      store: new SqlWebhookStore(runnerSql, secrets),
      queue,
      policy: webhookPolicy,
      retry: { maxAttempts: config.webhookMaxAttempts, baseDelayMs: config.webhookRetryBaseMs, timeoutMs: config.webhookTimeout * 1000 },
      log,
    })
    closers.push(closeDeliveries)
  }

  // One listener for every event stream of the process; closed after the HTTP server (closers run in reverse).
  const feed = await EventFeed.open(sql, { log })
  closers.push(() => feed.close())
  const app = httpApp('orchestrator', config, log, shared, metrics)
  registerTaskRoutes(app, { service, store, runner, metrics })
  registerEventsRoute(app, store, feed)
  registerArmsRoutes(app, {
    registry: arms.registry,
    issuer: arms.issuer,
  })
  registerKnowledgeRoutes(app, { knowledge: arms.knowledge })
  registerApiKeyRoutes(app, { keys: new SqlApiKeyStore(apiSql) })
  registerWebhookRoutes(app, { webhooks, tasks: store, policy: webhookPolicy })
  registerDeletionRoutes(app, {
    store,
    sql: apiSql,
    knowledge: arms.knowledge,
    memory: arms.memory,
    forgetAnswer: (task) => service.forget(task),
  })
  registerStatusRoutes(app, {
    sql,
    cacheHealth: () => shared.cache.health(),
    ...limitsHealth(shared),
    queueRunning: () => queueRunning,
    ...(shared.redis && { redis: shared.redis }),
    ...(shared.limitsRedis && { limitsRedis: shared.limitsRedis }),
    reflexCheck: () => reflexSelfCheck(shared.detector),
    metrics,
    version: VERSION,
    startedAt,
    auth: authStatus(config.auth, config.authOffInTheOpen),
    ...(arms.qdrant && { qdrant: arms.qdrant }),
  })
  registerDocsRoutes(app)
  const port = await app.listen(config.port, config.host)
  closers.push(() => app.close())
  return port
}
