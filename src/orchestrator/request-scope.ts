/**
 * Whose data a request acts on, from its principal (docs/security.md, "Tenants"): the tenant it
 * creates in, the tenants it may read and change, and the user it acts for.
 *
 * ```ts
 * const tenant = tenantToWrite(ctx)   // the caller's tenant; an admin may name another: X-Tenant: acme
 * const scope = tenantToRead(ctx)     // the same, or ANY_TENANT for an admin that sends X-Tenant: *
 * const user = actingUser(ctx)        // the principal, or the user a `service` gateway names in X-User-ID
 * ```
 *
 * Only an admin acts outside its own tenant, and only when it says so: without `X-Tenant` an admin
 * acts in its own tenant like everyone else. Anyone else that names another tenant is refused
 * (403): it is never quietly served from its own tenant instead.
 */
import { isAdmin } from '../auth/principal.js'
import type { Ctx } from '../http/app.js'
import { HttpError } from '../http/errors.js'
import { ANY_TENANT, type TenantScope } from '../stores/tenant.js'

export const TENANT_HEADER = 'X-Tenant'
export const USER_HEADER = 'X-User-ID'

/**
 * What an admin may send in `X-Tenant` to name a tenant: what a credential may name as its tenant
 * (docs/security.md), 1 to 256 characters with no control character.
 */
const TENANT_NAME = /^[^\p{Cc}]{1,256}$/u
/** `X-Tenant: *`: every tenant, for reads and changes of what exists (never for creating). */
const EVERY_TENANT = '*'
const MAX_USER_ID = 256

/** The tenant a request creates in: its own, or for an admin the one `X-Tenant` names. */
export function tenantToWrite(ctx: Ctx): string {
  const scope = requested(ctx)
  if (scope === ANY_TENANT) throw HttpError.validation(TENANT_HEADER, 'must name one tenant to create in, not *')
  return scope
}

/** The tenants a request reads or changes: its own, or for an admin the one `X-Tenant` names, or every one (`*`). */
export function tenantToRead(ctx: Ctx): TenantScope {
  return requested(ctx)
}

function requested(ctx: Ctx): TenantScope {
  const own = ctx.principal.tenant
  const named = ctx.headers(TENANT_HEADER)
  if (named === undefined || named === own) return own
  if (!isAdmin(ctx.principal)) {
    throw HttpError.forbidden(`Only an admin may act in another tenant than its own`, TENANT_HEADER, 'must be your own tenant or absent')
  }
  if (named === EVERY_TENANT) return ANY_TENANT
  if (!TENANT_NAME.test(named)) {
    throw HttpError.validation(TENANT_HEADER, 'must be * or a tenant name of 1 to 256 characters, none a control character')
  }
  return named
}

/**
 * Who a request acts for: the principal itself, unless the principal is a `service` (a trusted
 * gateway) that names the user it acts for in `X-User-ID`. From anyone else the header is ignored.
 * It scopes idempotency keys and is the task's stored `user_id`.
 */
export function actingUser(ctx: Ctx): string {
  const { principal } = ctx
  if (!principal.roles.includes('service')) return principal.id
  const named = ctx.headers(USER_HEADER)
  if (named === undefined || named === '') return principal.id
  if (named.length > MAX_USER_ID) throw HttpError.validation(USER_HEADER, `must be at most ${MAX_USER_ID} characters`)
  return named
}
