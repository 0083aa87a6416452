/**
 * What the judge looks at: the dependency outputs, keyed by step id. Dotted paths reach into it,
 * leaves are what text checks read, and each output's "primary result" is what `equals` and
 * `valid_json` compare when no path is given.
 *
 * ```ts
 * const subject = { s2: { result: 6765, console: [], duration_ms: 3 } }
 * resolvePath(subject, 's2.result') // { found: true, value: 6765 }
 * leaves(subject)                   // [{ path: 's2.result', text: '6765' }, { path: 's2.duration_ms', … }]
 * primaryResults(subject)           // [{ path: 's2.result', value: 6765 }]
 * ```
 */

/** Leaves walked at most: a subject with more is judged on the first ones (the detail says so). */
export const MAX_LEAVES = 10_000

export interface Leaf {
  path: string
  text: string
}

export type Resolved = { found: true; value: unknown } | { found: false; missing: string }

/** `a.b.0.c`: object keys and array indices; `missing` names the first part that is not there. */
export function resolvePath(subject: Record<string, unknown>, path: string): Resolved {
  const parts = path.split('.')
  let value: unknown = subject
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!
    if (Array.isArray(value) && /^\d+$/.test(part) && Number(part) < value.length) {
      value = value[Number(part)]
      continue
    }
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, part)) {
      value = (value as Record<string, unknown>)[part]
      continue
    }
    return { found: false, missing: parts.slice(0, i + 1).join('.') }
  }
  return { found: true, value }
}

/** String and number leaves (booleans too, as text), depth first, at most `MAX_LEAVES`. */
export function leaves(value: unknown, path = ''): { leaves: Leaf[]; capped: boolean } {
  const out: Leaf[] = []
  let capped = false
  const walk = (v: unknown, at: string): void => {
    if (out.length >= MAX_LEAVES) {
      capped = true
      return
    }
    if (typeof v === 'string') out.push({ path: at, text: v })
    else if (typeof v === 'number' || typeof v === 'boolean') out.push({ path: at, text: String(v) })
    else if (Array.isArray(v)) for (const [i, item] of v.entries()) walk(item, join(at, String(i)))
    else if (v !== null && typeof v === 'object') for (const [k, item] of Object.entries(v)) walk(item, join(at, k))
  }
  walk(value, path)
  return { leaves: out, capped }
}

/**
 * The field of each known output shape that holds its answer: javascript `result`, shell
 * `stdout`, coder `code`, http_fetch `body`, retriever `summary`; a bare scalar output is its own.
 * Outputs of another shape have none and are left out.
 */
const PRIMARY_FIELDS = ['result', 'stdout', 'code', 'body', 'summary', 'answer', 'text'] as const

export function primaryResults(subject: Record<string, unknown>): Array<{ path: string; value: unknown }> {
  const out: Array<{ path: string; value: unknown }> = []
  for (const [step, output] of Object.entries(subject)) {
    if (output === null || typeof output !== 'object' || Array.isArray(output)) {
      out.push({ path: step, value: output })
      continue
    }
    const field = PRIMARY_FIELDS.find((f) => Object.hasOwn(output, f))
    if (field !== undefined) out.push({ path: `${step}.${field}`, value: (output as Record<string, unknown>)[field] })
  }
  return out
}

/** A value quoted for a detail or an error message: JSON, cut to `max` characters. */
export function preview(value: unknown, max = 80): string {
  let text: string
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value))
  } catch {
    text = String(value)
  }
  return text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text
}

/**
 * The subject as JSON for a model prompt, bounded: each string leaf cut to `leafChars`, then the
 * whole cut to `totalChars`, so a 5 MB stdout costs a bounded prompt.
 */
export function boundedJson(subject: unknown, leafChars = 2_000, totalChars = 12_000): string {
  const cut = (v: unknown): unknown => {
    if (typeof v === 'string') return v.length > leafChars ? `${v.slice(0, leafChars)}…[${v.length - leafChars} more chars]` : v
    if (Array.isArray(v)) return v.slice(0, 200).map(cut)
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(
        Object.entries(v)
          .slice(0, 200)
          .map(([k, x]) => [k, cut(x)]),
      )
    return v
  }
  const text = JSON.stringify(cut(subject), null, 1) ?? 'null'
  return text.length > totalChars ? `${text.slice(0, totalChars)}\n…[subject cut at ${totalChars} of ${text.length} chars]` : text
}

function join(at: string, key: string): string {
  return at === '' ? key : `${at}.${key}`
}
