/**
 * Counts every SQL statement a process sends to PostgreSQL, on every connection (ours and
 * pg-boss's), by kind: `pg.Client.prototype.query` is wrapped once, before anything connects.
 *
 * ```ts
 * countStatements()
 * const before = statementCounts()
 * // … work …
 * const perKind = diffCounts(statementCounts(), before)
 * ```
 */
import pg from 'pg'

const counts = new Map<string, number>()
let installed = false

/** A statement's kind: BEGIN/COMMIT/ROLLBACK, a pg-boss fetch, or its first 90 characters. */
export function kindOf(q: unknown): string {
  const text = typeof q === 'string' ? q : ((q as { text?: string } | null)?.text ?? '?')
  const t = text.replace(/\s+/g, ' ').trim()
  if (/^(begin|commit|rollback)\b/i.test(t)) return t.split(' ')[0]!.toUpperCase()
  if (/skip locked/i.test(t)) return 'pg-boss fetch (… FOR UPDATE SKIP LOCKED)'
  return t.slice(0, 90)
}

export function tally(q: unknown): void {
  const k = kindOf(q)
  counts.set(k, (counts.get(k) ?? 0) + 1)
}

export function countStatements(): void {
  if (installed) return
  installed = true
  const proto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown }
  const original = proto.query
  proto.query = function (this: unknown, ...a: unknown[]) {
    tally(a[0])
    return original.apply(this, a)
  }
}

export function statementCounts(): Record<string, number> {
  return Object.fromEntries(counts)
}

export function totalOf(c: Record<string, number>): number {
  return Object.values(c).reduce((a, b) => a + b, 0)
}

/** after − before, per kind, kinds that did not move left out. */
export function diffCounts(after: Record<string, number>, before: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {}
  for (const [k, v] of Object.entries(after)) {
    const d = v - (before[k] ?? 0)
    if (d > 0) out[k] = d
  }
  return out
}
