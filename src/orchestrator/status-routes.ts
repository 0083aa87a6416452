/**
 * `GET /api/v1/health` (and `/health`): each dependency as checked just now (health-checks.ts),
 * 503 when a required one (the database, the job queue) is down, `degraded` when another is;
 * `GET /ready`; `GET /api/v1/metrics` (and `/metrics`).
 */

import { version as addonVersion } from '@ganglion/reflex'
import type { AuthStatus } from '../auth/principal.js'
import type { HttpApp, Reply } from '../http/app.js'
import type { Metrics } from '../metrics.js'
import type { RedisConnection, RedisHealth } from '../stores/redis-client.js'
import type { Sql } from '../stores/sql.js'
import type { CacheHealth } from '../stores/tiered-cache-store.js'
import { checkDatabase, checkDependencies } from './health-checks.js'

export interface StatusDeps {
  sql: Sql
  cacheHealth: () => CacheHealth
  /** The Redis of the rate-limit buckets, when RATE_LIMIT_REDIS_URL names one apart from the cache's. */
  limitsHealth?: () => RedisHealth
  queueRunning: () => boolean
  /** The cache's Redis, pinged by the health check; absent when REDIS_URL is not set. */
  redis?: RedisConnection
  /** The rate-limit buckets' own Redis (RATE_LIMIT_REDIS_URL), pinged too. */
  limitsRedis?: RedisConnection
  /** Asks the reflex layer the orchestrator screens goals with; throws when it answers wrongly. */
  reflexCheck: () => Promise<void> | void
  metrics: Metrics
  version: string
  startedAt: Date
  auth: AuthStatus
  /** Qdrant, when it keeps the vectors (QDRANT_URL): reported, and `degraded` while it is down. */
  qdrant?: () => Promise<'up' | 'down'>
}

export function registerStatusRoutes(app: HttpApp, deps: StatusDeps): void {
  const health = async (): Promise<Reply> => {
    const checks = await checkDependencies(deps)
    const required = checks.database.status === 'up' && checks.job_queue.status === 'up'
    const degraded = Object.values(checks).some((c) => c.status === 'down')
    return {
      status: required ? 200 : 503,
      body: {
        status: !required ? 'unhealthy' : degraded ? 'degraded' : 'healthy',
        service: 'orchestrator',
        version: deps.version,
        addon_version: addonVersion,
        uptime_seconds: Math.round((Date.now() - deps.startedAt.getTime()) / 1000),
        dependencies: {
          database: checks.database.status,
          database_kind: deps.sql.dialect,
          job_queue: checks.job_queue.status,
          reflex: checks.reflex.status,
          redis: checks.redis.status,
          ...(checks.rate_limit_redis !== undefined && { rate_limit_redis: checks.rate_limit_redis.status }),
          ...(checks.qdrant !== undefined && { qdrant: checks.qdrant.status }),
        },
        checks,
        auth: deps.auth,
      },
    }
  }
  app.route('GET', '/api/v1/health', health, { permission: 'public' })
  app.route('GET', '/health', health, { permission: 'public' })

  app.route(
    'GET',
    '/ready',
    async () => {
      const ready = deps.queueRunning() && (await checkDatabase(deps.sql)).status === 'up'
      return { status: ready ? 200 : 503, body: { ready } }
    },
    { permission: 'public' },
  )

  const metrics = async (): Promise<Reply> => {
    const { contentType, body } = await deps.metrics.text()
    return { headers: { 'content-type': contentType }, raw: body }
  }
  app.route('GET', '/api/v1/metrics', metrics, { permission: 'metrics' })
  app.route('GET', '/metrics', metrics, { permission: 'metrics' })
}
