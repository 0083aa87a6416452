/**
 * Severities as the reflex core orders them, for the plain-TypeScript port of its detection
 * (bench/baseline/same): the port's modules share these names and this order.
 *
 * ```ts
 * worse('medium', 'high') // 'high'
 * ```
 */
export type Severity = 'none' | 'low' | 'medium' | 'high' | 'critical'

export const SEVERITIES: readonly Severity[] = ['none', 'low', 'medium', 'high', 'critical']

/** The position of `s` in the order none < low < medium < high < critical. */
export function rank(s: Severity): number {
  return SEVERITIES.indexOf(s)
}

/** The worse of two severities. */
export function worse(a: Severity, b: Severity): Severity {
  return rank(a) >= rank(b) ? a : b
}
