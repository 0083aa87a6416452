/**
 * An arm's three routes (DESIGN.md §7) over its ArmHost, for `ganglion arm <name>`.
 *
 * ```ts
 * const app = createHttpApp({ name: 'arm-executor', bodyLimitBytes, logger })
 * registerArmRoutes(app, new ArmHost(arm, { verifier: remoteVerifier(config.orchestratorUrl), llm, endpoint, version }))
 * // POST /execute   Authorization: Bearer <capability token>  → 200 ExecuteResponse
 * // GET  /health    → 200 healthy|degraded, 503 unhealthy (ArmHealth either way)
 * // GET  /capabilities → ArmCapability
 * ```
 *
 * Every refusal is the spec's error object: 400 VALIDATION_ERROR naming the field, 401/403 with
 * the token reason in `details.constraint` (capability-verifier.ts). The body is validated by the
 * host, not the route, so the in-process path refuses exactly the same bodies.
 */
import { bearerToken } from '../auth/capability-verifier.js'
import type { HttpApp } from '../http/app.js'
import type { ArmHost } from './arm-host.js'

export function registerArmRoutes(app: HttpApp, host: ArmHost): void {
  app.route(
    'POST',
    '/execute',
    async (ctx) => ({ body: await host.execute(ctx.body, bearerToken(ctx.headers('authorization')), ctx.signal) }),
    { body: 'json' },
  )
  app.route('GET', '/health', async () => {
    const health = await host.health()
    return { status: health.status === 'unhealthy' ? 503 : 200, body: health }
  })
  app.route('GET', '/capabilities', () => ({ body: host.capability() }))
}
