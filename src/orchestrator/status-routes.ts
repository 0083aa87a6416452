/**
 * `GET /api/v1/health` (and `/health`): each dependency's status, 503 when a required one (the
 * database, the job queue) is down; `GET /ready`; `GET /api/v1/metrics` (and `/metrics`).
 */

import { version as addonVersion } from '@ganglion/reflex'
import type { AuthStatus } from '../auth/principal.js'
import type { HttpApp, Reply } from '../http/app.js'
import type { Metrics } from '../metrics.js'
import type { RedisHealth } from '../stores/redis-client.js'
import type { Sql } from '../stores/sql.js'
import type { CacheHealth } from '../stores/tiered-cache-store.js'

export interface StatusDeps {
  sql: Sql
  cacheHealth: () => CacheHealth
  /** The Redis of the rate-limit buckets, when RATE_LIMIT_REDIS_URL names one apart from the cache's. */
  limitsHealth?: () => RedisHealth
  queueRunning: () => boolean
  metrics: Metrics
  version: string
  startedAt: Date
  auth: AuthStatus
  /** Qdrant, when it keeps the vectors (QDRANT_URL): reported, and `degraded` while it is down. */
  qdrant?: () => Promise<'up' | 'down'>
}

/** A database that does not answer within this is reported down. */
const PROBE_MS = 2000

async function probe(sql: Sql): Promise<'up' | 'down'> {
  return within(() => sql.query('select 1').then(() => 'up' as const))
}

/** `check`'s answer, or `down` when it throws or takes longer than PROBE_MS. */
async function within(check: () => Promise<'up' | 'down'>): Promise<'up' | 'down'> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<'down'>((resolve) => {
    timer = setTimeout(() => resolve('down'), PROBE_MS)
  })
  try {
    return await Promise.race([check(), timeout])
  } catch {
    return 'down'
  } finally {
    clearTimeout(timer)
  }
}

export function registerStatusRoutes(app: HttpApp, deps: StatusDeps): void {
  const health = async (): Promise<Reply> => {
    const qdrantCheck = deps.qdrant
    const [database, qdrant] = await Promise.all([probe(deps.sql), qdrantCheck && within(qdrantCheck)])
    const queue = deps.queueRunning() ? 'up' : 'down'
    const redis = deps.cacheHealth().redis
    const limits = deps.limitsHealth?.().redis
    const required = database === 'up' && queue === 'up'
    return {
      status: required ? 200 : 503,
      body: {
        status: !required ? 'unhealthy' : redis === 'down' || limits === 'down' || qdrant === 'down' ? 'degraded' : 'healthy',
        service: 'orchestrator',
        version: deps.version,
        addon_version: addonVersion,
        uptime_seconds: Math.round((Date.now() - deps.startedAt.getTime()) / 1000),
        dependencies: {
          database,
          database_kind: deps.sql.dialect,
          job_queue: queue,
          reflex: 'up',
          redis,
          ...(limits !== undefined && { rate_limit_redis: limits }),
          ...(qdrant !== undefined && { qdrant }),
        },
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
      const ready = deps.queueRunning() && (await probe(deps.sql)) === 'up'
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
