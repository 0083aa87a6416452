/**
 * Text the stores can keep: no NUL character (PostgreSQL's text and jsonb refuse `\u0000`) and no
 * lone UTF-16 surrogate (it has no UTF-8 form, so it would be stored as something else or refused).
 *
 * ```ts
 * refuseUnstorableText({ goal: 'ok', metadata: { k: 'a\u0000' } })
 * // throws HttpError.validation('metadata.k', 'must NOT contain NUL characters')
 * ```
 *
 * Keys count as text too. The walk keeps its own stack, so it never recurses on client depth
 * (the body's depth is already bounded by json-depth.ts).
 */
import { HttpError } from './errors.js'

export const NUL_CONSTRAINT = 'must NOT contain NUL characters'
export const SURROGATE_CONSTRAINT = 'must NOT contain lone surrogates'

// Node 20 has String.prototype.isWellFormed; the ES2022 library this project compiles with does not declare it.
const wellFormed = (s: string): boolean => (s as string & { isWellFormed(): boolean }).isWellFormed()

/** Why `s` cannot be stored, or undefined when it can. */
export function unstorable(s: string): string | undefined {
  if (s.includes('\u0000')) return NUL_CONSTRAINT
  return wellFormed(s) ? undefined : SURROGATE_CONSTRAINT
}

/** Throws a 400 naming the first string (value or key) of `value` that cannot be stored. */
export function refuseUnstorableText(value: unknown): void {
  const pending: Array<{ value: unknown; field: string }> = [{ value, field: '' }]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value: v, field } = next
    if (typeof v === 'string') {
      const why = unstorable(v)
      if (why !== undefined) throw HttpError.validation(field === '' ? 'body' : field, why)
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) pending.push({ value: v[i], field: `${field}[${i}]` })
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v)
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!
        const child = field === '' ? key : `${field}.${key}`
        // The key is popped (checked) just before its value: document order.
        pending.push({ value: (v as Record<string, unknown>)[key], field: child }, { value: key, field: child })
      }
    }
  }
}
