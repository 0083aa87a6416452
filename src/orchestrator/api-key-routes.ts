/**
 * The API key routes of the orchestrator: create, list, read and revoke keys (docs/security.md).
 *
 * ```ts
 * registerApiKeyRoutes(app, { keys })
 * // POST   /api/v1/api-keys {tenant, role, name, rate_limit?, read_rate_limit?}
 * //        → 201 {id, key, tenant, role, name, created_at, rate_limit, read_rate_limit} + Location (the key, once)
 * // GET    /api/v1/api-keys?tenant=acme&page=1    → 200 the page envelope of records, no secrets
 * // GET    /api/v1/api-keys/{id}                  → 200 the record | 404
 * // DELETE /api/v1/api-keys/{id}                  → 200 the record, revoked (again: unchanged) | 404
 * ```
 *
 * Every route needs `keys:admin`, which only the admin role has; an admin acts in any tenant
 * (src/auth/principal.ts), so the list filters by `tenant` only when asked to.
 */
import { CreateApiKeyRequest, createApiKey, createdBody } from '../auth/api-keys.js'
import type { Ctx, HttpApp, Reply } from '../http/app.js'
import { HttpError } from '../http/errors.js'
import { pageEnvelope, parsePageQuery } from '../http/pagination.js'
import { compileSchema } from '../http/validate.js'
import type { ApiKeySortKey, ApiKeyStore } from '../stores/api-key-store.js'

export interface ApiKeyRouteDeps {
  keys: ApiKeyStore
}

const PAGE = { sortFields: ['created_at', 'name', 'tenant'] satisfies ApiKeySortKey[], defaultSort: 'created_at' }
const TENANT = /^[A-Za-z0-9._-]{1,128}$/
const parseCreate = compileSchema(CreateApiKeyRequest)

function keyId(ctx: Ctx): string {
  return ctx.params.id ?? ''
}

function notFound(id: string): HttpError {
  return HttpError.notFound('id', `No API key with id ${JSON.stringify(id)}`)
}

function tenantFilter(ctx: Ctx): string | undefined {
  const all = ctx.query.getAll('tenant')
  if (all.length > 1) throw HttpError.validation('tenant', 'must be given at most once')
  const tenant = all[0]
  if (tenant !== undefined && !TENANT.test(tenant)) throw HttpError.validation('tenant', 'must be 1 to 128 of A-Z a-z 0-9 . _ -')
  return tenant
}

export function registerApiKeyRoutes(app: HttpApp, deps: ApiKeyRouteDeps): void {
  const { keys } = deps

  app.route(
    'POST',
    '/api/v1/api-keys',
    async (ctx: Ctx): Promise<Reply> => {
      const req = parseCreate(ctx.body)
      const { record, key } = await createApiKey(keys, req)
      return {
        status: 201,
        headers: { Location: `/api/v1/api-keys/${record.id}`, 'cache-control': 'no-store' },
        body: createdBody(record, key),
      }
    },
    { permission: 'keys:admin' },
  )

  app.route(
    'GET',
    '/api/v1/api-keys',
    async (ctx: Ctx): Promise<Reply> => {
      const q = parsePageQuery(ctx.query, PAGE)
      const tenant = tenantFilter(ctx)
      const { items, total } = await keys.list({
        ...(tenant !== undefined && { tenant }),
        sortBy: q.sortBy as ApiKeySortKey,
        order: q.order,
        limit: q.pageSize,
        offset: q.offset,
      })
      return { body: pageEnvelope(items, total, q) }
    },
    { permission: 'keys:admin' },
  )

  app.route(
    'GET',
    '/api/v1/api-keys/:id',
    async (ctx: Ctx): Promise<Reply> => {
      const stored = await keys.get(keyId(ctx))
      if (stored === undefined) throw notFound(keyId(ctx))
      const { secret_hash: _, ...record } = stored
      return { body: record }
    },
    { permission: 'keys:admin' },
  )

  app.route(
    'DELETE',
    '/api/v1/api-keys/:id',
    async (ctx: Ctx): Promise<Reply> => {
      const record = await keys.revoke(keyId(ctx))
      if (record === undefined) throw notFound(keyId(ctx))
      return { body: record }
    },
    { permission: 'keys:admin' },
  )
}
