/**
 * An arm's three routes (docs/arms-and-tokens.md) over its ArmHost, for `ganglion arm <name>`.
 *
 * ```ts
 * const app = createHttpApp({ name: 'arm-executor', bodyLimitBytes, logger })
 * registerArmRoutes(app, new ArmHost(arm, { verifier: remoteVerifier(config.orchestratorUrl), llm, endpoint, version }))
 * // POST /execute   Authorization: Bearer <capability token>  → 200 ExecuteResponse
 * // GET  /health    → 200 healthy|degraded, 503 unhealthy (ArmHealth either way)
 * // GET  /capabilities → ArmCapability
 * ```
 *
 * Every refusal is the HTTP error object: 400 VALIDATION_ERROR naming the field, 401/403 with the
 * token reason in `details.constraint`, 503 when the orchestrator's key set cannot be fetched
 * (`httpErrorOf`). The token is authenticated before the body is read (the route's `credential`
 * check): without a valid one the answer is 401 whatever the body, even an empty or non-JSON one.
 * The body is validated by the host, not the route, so the in-process path refuses exactly the
 * same bodies.
 */
import { bearerToken, CapabilityError, KeySetUnavailableError, type VerifiedCapability } from '../auth/capability-verifier.js'
import type { HttpApp } from '../http/app.js'
import { HttpError } from '../http/errors.js'
import type { ArmHost } from './arm-host.js'

export function registerArmRoutes(app: HttpApp, host: ArmHost): void {
  app.route(
    'POST',
    '/execute',
    async (ctx) => {
      try {
        return { body: await host.run(ctx.body, ctx.credential as VerifiedCapability, ctx.signal) }
      } catch (err) {
        throw httpErrorOf(err)
      }
    },
    {
      permission: 'capability',
      body: 'json',
      // Step inputs carry tool and model output as produced; the arm stores none of it.
      text: 'any',
      // The token before the body: a caller without a valid one learns nothing of what a body should hold.
      credential: (authorization) =>
        host.authenticate(bearerToken(authorization)).catch((err: unknown) => Promise.reject(httpErrorOf(err))),
    },
  )
  app.route(
    'GET',
    '/health',
    async () => {
      const health = await host.health()
      return { status: health.status === 'unhealthy' ? 503 : 200, body: health }
    },
    { permission: 'public' },
  )
  app.route('GET', '/capabilities', () => ({ body: host.capability() }), { permission: 'public' })
}

/**
 * A token refusal as 401 UNAUTHORIZED or 403 FORBIDDEN, `details.field` = authorization and the
 * reason in `details.constraint` (generic clients read the code, arm clients the reason); a key
 * set that could not be fetched as 503 on `orchestrator`. Anything else is returned as it is.
 */
export function httpErrorOf(err: unknown): unknown {
  if (err instanceof KeySetUnavailableError) return HttpError.unavailable('orchestrator', err.message)
  if (!(err instanceof CapabilityError)) return err
  const details = { field: 'authorization', constraint: err.reason }
  if (err.forbidden) return new HttpError('FORBIDDEN', err.message, details)
  // RFC 6750: a 401 names the scheme, so clients know what to send
  return new HttpError('UNAUTHORIZED', err.message, details, { 'www-authenticate': 'Bearer error="invalid_token"' })
}
