/** Registers every reflex route (the reflex layer's API, README.md) on an HTTP app. */
import type { HttpApp } from '../http/app.js'
import { cacheDeleteRoute, cacheGetRoute, cacheSetRoute } from './cache-routes.js'
import { checkRoute } from './check-route.js'
import type { ReflexDeps } from './deps.js'
import { filterPiiRoute, preprocessRoute } from './filter-routes.js'
import { healthRoute, readyRoute, statsRoute } from './status-routes.js'

export function registerReflexRoutes(app: HttpApp, deps: ReflexDeps): void {
  const check = checkRoute(deps)
  app.route<Buffer>('POST', '/api/v1/check', check, { body: 'bytes' })
  app.route<Buffer>('POST', '/process', check, { body: 'bytes' })
  app.route('POST', '/preprocess', preprocessRoute(deps))
  app.route('POST', '/filter/pii', filterPiiRoute(deps))

  app.route('POST', '/api/v1/cache', cacheSetRoute(deps))
  const get = cacheGetRoute(deps)
  app.route('GET', '/api/v1/cache/:key', get)
  app.route('GET', '/cache/:key', get)
  app.route('DELETE', '/api/v1/cache/:key', cacheDeleteRoute(deps))

  const health = healthRoute(deps)
  app.route('GET', '/api/v1/health', health)
  app.route('GET', '/health', health)
  app.route('GET', '/ready', readyRoute())
  app.route('GET', '/api/v1/stats', statsRoute(deps))
}
