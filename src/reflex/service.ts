/** Registers every reflex route (the reflex layer's API, README.md) on an HTTP app. */
import type { HttpApp } from '../http/app.js'
import { cacheDeleteRoute, cacheGetRoute, cacheSetRoute } from './cache-routes.js'
import { checkRoute } from './check-route.js'
import type { ReflexDeps } from './deps.js'
import { filterPiiRoute, preprocessRoute } from './filter-routes.js'
import { healthRoute, readyRoute, statsRoute } from './status-routes.js'

export function registerReflexRoutes(app: HttpApp, deps: ReflexDeps): void {
  const check = checkRoute(deps)
  app.route<Buffer>('POST', '/api/v1/check', check, { permission: 'check', body: 'bytes' })
  app.route<Buffer>('POST', '/process', check, { permission: 'check', body: 'bytes' })
  // Screening routes store no text: odd characters in it are theirs to look at (docs/security.md).
  app.route('POST', '/preprocess', preprocessRoute(deps), { permission: 'check', text: 'any' })
  app.route('POST', '/filter/pii', filterPiiRoute(deps), { permission: 'check', text: 'any' })

  app.route('POST', '/api/v1/cache', cacheSetRoute(deps), { permission: 'cache:write' })
  const get = cacheGetRoute(deps)
  app.route('GET', '/api/v1/cache/:key', get, { permission: 'cache:read' })
  app.route('GET', '/cache/:key', get, { permission: 'cache:read' })
  app.route('DELETE', '/api/v1/cache/:key', cacheDeleteRoute(deps), { permission: 'cache:write' })

  const health = healthRoute(deps)
  app.route('GET', '/api/v1/health', health, { permission: 'public' })
  app.route('GET', '/health', health, { permission: 'public' })
  app.route('GET', '/ready', readyRoute(), { permission: 'public' })
  app.route('GET', '/api/v1/stats', statsRoute(deps), { permission: 'metrics' })
}
