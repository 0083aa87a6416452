/**
 * The `requestHash` an idempotent create is compared by: SHA-256 of the body as canonical JSON
 * (object keys sorted at every depth), so the same body sent with its keys in another order, or
 * with other whitespace, is still the same request.
 *
 * ```ts
 * await store.create(task, { idempotencyKey, requestHash: requestHash(body) })
 * ```
 */
import { createHash } from 'node:crypto'

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined) // as JSON.stringify drops them
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

export function requestHash(body: unknown): string {
  return createHash('sha256').update(canonical(body)).digest('hex')
}
