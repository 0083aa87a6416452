/** `GET /api/v1/health` (and `/health`), `GET /ready` and `GET /api/v1/stats`. */

import { version as addonVersion } from '@ganglion/reflex'
import type { Ctx, Reply } from '../http/app.js'
import type { ReflexDeps } from './deps.js'

export function healthRoute(deps: ReflexDeps) {
  return (_ctx: Ctx): Reply => {
    const redis = deps.cache.health().redis
    const limits = deps.limitsHealth?.().redis
    // A dead Redis degrades the service (no shared tier, local limits) but it keeps answering.
    const status = redis === 'down' || limits === 'down' ? 'degraded' : 'healthy'
    return {
      status: 200,
      body: {
        status,
        service: 'reflex',
        version: deps.version,
        addon_version: addonVersion,
        uptime_seconds: Math.round((Date.now() - deps.startedAt.getTime()) / 1000),
        dependencies: { addon: 'up', redis, ...(limits !== undefined && { rate_limit_redis: limits }) },
        auth: deps.auth,
      },
    }
  }
}

export function readyRoute() {
  return (_ctx: Ctx): Reply => ({ status: 200, body: { ready: true } })
}

export function statsRoute(deps: ReflexDeps) {
  return async (_ctx: Ctx): Promise<Reply> => {
    const cache = await deps.cache.stats()
    const checks = deps.detector.stats()
    return {
      status: 200,
      body: {
        cache,
        checks: {
          total: checks.checks,
          blocked: checks.blocked,
          pii_detected: checks.piiDetected,
          injection_detected: checks.injectionDetected,
        },
        redis: deps.cache.health(),
        uptime_seconds: Math.round((Date.now() - deps.startedAt.getTime()) / 1000),
      },
    }
  }
}
