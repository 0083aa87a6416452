/**
 * Who is calling, and what they may do: every request the HTTP layer lets through carries a
 * `Principal`, made by the authenticator from the request's credential (docs/security.md).
 *
 * ```ts
 * can(ctx.principal, 'tasks:write')   // a member, a service or an admin may submit tasks
 * ownTenant(ctx.principal)            // the tenant every query of the request filters by
 * ```
 *
 * Roles grant permissions; the route table (each route's `permission`) says which one a route
 * needs. An admin may act in any tenant; everyone else only in their own.
 */

export const ROLES = ['admin', 'member', 'viewer', 'service'] as const
export type Role = (typeof ROLES)[number]

/**
 * What a route needs. `public`: anyone, no credential read (health, readiness, the docs, the
 * capability key set); `capability`: a capability token the route verifies itself (an arm's
 * `/execute`); every other permission needs a principal that has it.
 */
export type Permission =
  | 'public'
  | 'capability'
  | 'check'
  | 'tasks:read'
  | 'tasks:write'
  | 'knowledge:read'
  | 'knowledge:write'
  | 'cache:read'
  | 'cache:write'
  | 'arms:read'
  | 'arms:admin'
  | 'keys:admin'
  | 'metrics'
  | 'webhooks:read'
  | 'webhooks:write'
  | 'webhooks:admin'
  | 'tenants:admin'

const GRANTS: Readonly<Record<Role, ReadonlySet<Permission>>> = {
  admin: new Set<Permission>([
    'check',
    'tasks:read',
    'tasks:write',
    'knowledge:read',
    'knowledge:write',
    'cache:read',
    'cache:write',
    'arms:read',
    'arms:admin',
    'keys:admin',
    'metrics',
    'webhooks:read',
    'webhooks:write',
    'webhooks:admin',
    'tenants:admin',
  ]),
  member: new Set<Permission>([
    'check',
    'tasks:read',
    'tasks:write',
    'knowledge:read',
    'knowledge:write',
    'cache:read',
    'cache:write',
    'arms:read',
    'webhooks:read',
    'webhooks:write',
  ]),
  viewer: new Set<Permission>(['tasks:read', 'knowledge:read', 'arms:read', 'webhooks:read']),
  service: new Set<Permission>(['check', 'tasks:read', 'tasks:write']),
}

/** The tenant of everything a deployment had before it had tenants, and of every request with auth off. */
export const DEFAULT_TENANT = 'default'

export interface Principal {
  /** Stable and unique: `key:<id>` for an API key, `jwt:<sub>` for a token, `admin` for ADMIN_TOKEN, `anonymous` with auth off. */
  readonly id: string
  readonly tenant: string
  readonly roles: readonly Role[]
  /** How the credential came. */
  readonly via: 'api-key' | 'jwt' | 'admin-token' | 'none'
  /** Its own requests per minute, where its credential sets them (an API key); unset: the server's. */
  readonly limits?: RateLimitOverrides
}

/** Requests per minute one principal may make, writes and reads apart; 0 is no limit. */
export interface RateLimitOverrides {
  readonly writes?: number
  readonly reads?: number
}

/** Every request's principal while authentication is off: one admin in the default tenant. */
export const ANONYMOUS: Principal = Object.freeze({
  id: 'anonymous',
  tenant: DEFAULT_TENANT,
  roles: Object.freeze(['admin'] as Role[]),
  via: 'none',
})

/** The principal of a `public` route's request: nobody was asked, so it may do nothing. */
export const NOBODY: Principal = Object.freeze({ id: 'nobody', tenant: DEFAULT_TENANT, roles: Object.freeze([] as Role[]), via: 'none' })

/** What a health reply says of authentication: `warning` when it is off on an open address. */
export interface AuthStatus {
  mode: 'required' | 'off'
  warning?: string
}

/** The health replies' `auth` field for a configuration. */
export function authStatus(mode: 'required' | 'off', openAddress: boolean): AuthStatus {
  if (mode === 'required' || !openAddress) return { mode }
  return { mode, warning: 'AUTH=off on an address other hosts can reach: every client may do anything, as an admin' }
}

/** Whether `principal` may do what `permission` guards. */
export function can(principal: Principal, permission: Permission): boolean {
  if (permission === 'public' || permission === 'capability') return true
  for (const role of principal.roles) if (GRANTS[role].has(permission)) return true
  return false
}

export function isAdmin(principal: Principal): boolean {
  return principal.roles.includes('admin')
}
