/**
 * The tenant every store query filters by (docs/security.md, "Tenants").
 *
 * ```ts
 * await tasks.get('acme', taskId)       // acme's task, or null: another tenant's is "not there"
 * await tasks.get(ANY_TENANT, taskId)   // any tenant's: only an admin's request passes this
 * const params: unknown[] = [taskId]
 * const where = `where task_id = $1${tenantFilter(scope, 'tenant', params)}`
 * ```
 *
 * A store method that reads or changes a resource takes a `TenantScope`; one that creates a
 * resource takes a tenant name (a string), never `ANY_TENANT`. `ANY_TENANT` is a symbol, not a
 * string, so no request value (a header, a token claim) can ever turn into it: only code that
 * asks for it on purpose gets it (the routes, for an admin that sends `X-Tenant: *`).
 */

/** Every tenant: the scope of an admin acting across tenants. */
export const ANY_TENANT: unique symbol = Symbol('ANY_TENANT')

/** One tenant by name, or `ANY_TENANT`. */
export type TenantScope = string | typeof ANY_TENANT

/**
 * ` and <column> = $n` with the tenant appended to `params`, or '' for `ANY_TENANT`. The SQL
 * differs per scope (rather than `$n is null or …`), so an index that leads with the tenant is
 * seen by the planner whatever the plan cache does.
 */
export function tenantFilter(scope: TenantScope, column: string, params: unknown[]): string {
  if (scope === ANY_TENANT) return ''
  params.push(scope)
  return ` and ${column} = $${params.length}`
}
