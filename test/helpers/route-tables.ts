/**
 * Each service's declared route table, as its HTTP app enforces it: every route module registered
 * on an app the way the composition root (src/app.ts, src/app-arm-service.ts) registers it, with
 * nothing behind the handlers. Nothing listens; the apps are closed in the test's teardown.
 *
 * ```ts
 * const tables = routeTables(t)
 * tables.reflex   // [{ method: 'POST', path: '/api/v1/check', permission: 'check' }, …]
 * ```
 */

import { registerArmRoutes } from '../../src/arms/arm-server.js'
import { createAuthenticator } from '../../src/auth/authenticator.js'
import { createHttpApp, type DeclaredRoute, type HttpApp } from '../../src/http/app.js'
import { registerDocsRoutes } from '../../src/http/docs-routes.js'
import { registerMetricsRoutes } from '../../src/metrics.js'
import { registerApiKeyRoutes } from '../../src/orchestrator/api-key-routes.js'
import { registerArmsRoutes } from '../../src/orchestrator/arms-routes.js'
import { registerDeletionRoutes } from '../../src/orchestrator/deletion-routes.js'
import { registerEventsRoute } from '../../src/orchestrator/events-route.js'
import { registerKnowledgeRoutes } from '../../src/orchestrator/knowledge-routes.js'
import { registerStatusRoutes } from '../../src/orchestrator/status-routes.js'
import { registerTaskRoutes } from '../../src/orchestrator/task-routes.js'
import { registerReflexRoutes } from '../../src/reflex/service.js'
import { registerWebhookRoutes } from '../../src/webhooks/routes.js'

export const SERVICES = ['orchestrator', 'reflex', 'arm'] as const
export type Service = (typeof SERVICES)[number]

// Handlers never run here, so the route modules get no dependencies.
const none = {} as never

/** The route modules each service registers, by the name of the function that registers them. */
export const ROUTE_MODULES: Readonly<Record<Service, Readonly<Record<string, (app: HttpApp) => void>>>> = {
  orchestrator: {
    registerTaskRoutes: (app) => registerTaskRoutes(app, none),
    registerEventsRoute: (app) => registerEventsRoute(app, none, none),
    registerArmsRoutes: (app) => registerArmsRoutes(app, none),
    registerKnowledgeRoutes: (app) => registerKnowledgeRoutes(app, none),
    registerApiKeyRoutes: (app) => registerApiKeyRoutes(app, none),
    registerWebhookRoutes: (app) => registerWebhookRoutes(app, none),
    registerDeletionRoutes: (app) => registerDeletionRoutes(app, none),
    registerStatusRoutes: (app) => registerStatusRoutes(app, none),
    registerDocsRoutes: (app) => registerDocsRoutes(app),
  },
  reflex: {
    registerReflexRoutes: (app) => registerReflexRoutes(app, none),
    registerMetricsRoutes: (app) => registerMetricsRoutes(app, none),
  },
  arm: {
    registerArmRoutes: (app) => registerArmRoutes(app, none),
    registerMetricsRoutes: (app) => registerMetricsRoutes(app, none),
  },
}

interface Teardown {
  teardown(fn: () => unknown): void
}

/** Every service's routes, in the order they are declared. */
export function routeTables(t: Teardown): Record<Service, readonly DeclaredRoute[]> {
  const logger = { error() {}, warn() {} }
  const tables = {} as Record<Service, readonly DeclaredRoute[]>
  for (const service of SERVICES) {
    // As in src/app.ts: every service authenticates (an arm its metrics; its own routes take capability tokens).
    const app = createHttpApp({ name: service, bodyLimitBytes: 1 << 20, logger, authenticate: createAuthenticator({ mode: 'required' }) })
    t.teardown(() => app.close())
    for (const register of Object.values(ROUTE_MODULES[service])) register(app)
    tables[service] = app.routes()
  }
  return tables
}

/** A route pattern as OpenAPI and the docs write it: `/api/v1/tasks/{task_id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}')
}
