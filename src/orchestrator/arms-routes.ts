/**
 * The orchestrator's arm routes: the arm list, registration of external arms, and the public keys
 * arms verify capability tokens with.
 *
 * ```ts
 * registerArmsRoutes(app, { registry, issuer })
 * // GET  /api/v1/arms?page=1&page_size=20     → 200 { data: [ArmListing…], pagination }
 * // POST /api/v1/arms/register {name, url, capability?}  (an admin's credential) → 201 ArmListing
 * // GET  /.well-known/jwks.json               → 200 { keys: [Ed25519 public JWKs] }
 * ```
 *
 * The list uses the spec's pagination envelope like every list (sorted by `name`, default ascending).
 *
 * Registration is privileged, since a registered arm receives task data: it needs the `arms:admin`
 * permission (an admin's API key or token, or ADMIN_TOKEN); with auth off, only loopback clients
 * may register (403 otherwise, and for any request carrying X-Forwarded-For or Forwarded: it came
 * through a proxy).
 */
import type { ArmRegistry } from '../arms/registry.js'
import type { HttpApp } from '../http/app.js'
import type { Ctx } from '../http/context.js'
import { HttpError } from '../http/errors.js'
import { pageEnvelope, parsePageQuery } from '../http/pagination.js'

export interface ArmsRoutesDeps {
  registry: Pick<ArmRegistry, 'list' | 'register'>
  issuer: { jwks(): Promise<{ keys: unknown[] }> }
}

const PAGE = { sortFields: ['name'], defaultSort: 'name', defaultOrder: 'asc' } as const

export function registerArmsRoutes(app: HttpApp, deps: ArmsRoutesDeps): void {
  app.route(
    'GET',
    '/api/v1/arms',
    async (ctx) => {
      const q = parsePageQuery(ctx.query, PAGE)
      const all = await deps.registry.list(ctx.signal)
      if (q.order === 'desc') all.reverse()
      return { body: pageEnvelope(all.slice(q.offset, q.offset + q.pageSize), all.length, q) }
    },
    { permission: 'arms:read' },
  )

  app.route(
    'POST',
    '/api/v1/arms/register',
    async (ctx) => {
      loopbackWhenAuthIsOff(ctx)
      const entry = await deps.registry.register(ctx.body, ctx.signal)
      return { status: 201, body: entry }
    },
    { permission: 'arms:admin', body: 'json' },
  )

  app.route(
    'GET',
    '/.well-known/jwks.json',
    async () => ({
      body: await deps.issuer.jwks(),
      // short: a new orchestrator's key must reach arms quickly (they also refetch on an unknown kid)
      headers: { 'cache-control': 'public, max-age=60' },
    }),
    { permission: 'public' },
  )
}

/**
 * With auth off there is no credential to tell an admin by, so registration is open to loopback
 * clients only: a registered arm receives task data. A forwarded request is not a loopback client,
 * whatever it claims: with TRUST_PROXY the left-most X-Forwarded-For is the remote client's own
 * text ("127.0.0.1" passes), and without it a proxy on the same host makes every remote client's
 * socket address a loopback one.
 */
function loopbackWhenAuthIsOff(ctx: Ctx): void {
  if (ctx.principal.via !== 'none') return
  const forwarded = ctx.headers('x-forwarded-for') !== undefined || ctx.headers('forwarded') !== undefined
  if (forwarded || !isLoopback(ctx.ip)) throw HttpError.forbidden('With AUTH=off, arm registration is open to loopback clients only')
}

function isLoopback(ip: string): boolean {
  return ip === '::1' || /^(::ffff:)?127\./i.test(ip) || /^0{0,4}(:0{0,4}){6}:0{0,3}1$/.test(ip)
}
