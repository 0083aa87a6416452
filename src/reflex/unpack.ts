/**
 * `check`'s result rebuilt from the addon's packed form (crates/reflex-node/src/packed.rs): the
 * numbers in a `Float64Array`, the strings JavaScript lacks in one string. The objects are built
 * with the fields in the order the addon's own object form has them, so `JSON.stringify` of either
 * reads the same. A match's `matchedText` is the caller's text between its offsets.
 */
import type { CheckResult, InjectionMatch, PackedNames, PiiMatch } from './engine.js'

/** Indices into `out`; the same numbers as `layout` in packed.rs. */
const FORM = 0
const NEEDED = 1
const BLOCKED = 2
const SCORE = 3
const SEVERITY = 4
const ROUTE = 5
const COMPLEXITY = 6
const KEY_LEN = 7
const REDACTED_LEN = 8
const ARMS_LEN = 9
const CACHED_LEN = 10
const CREATED_AT = 11
const EXPIRES_AT = 12
const PII_COUNT = 13
const INJECTION_COUNT = 14
const HEADER = 15
const PII_STRIDE = 4
const INJECTION_STRIDE = 5

/** Room for 24 matches of each kind; a larger result comes back as JSON once, then fits. */
export const PACKED_ROOM = HEADER + 24 * (PII_STRIDE + INJECTION_STRIDE)

/** True when `out` holds a packed result; otherwise the answer was JSON. */
export const isPacked = (out: Float64Array): boolean => out[FORM] === 1

/** How many numbers the last result needed (to grow `out` after a JSON answer). */
export const neededRoom = (out: Float64Array): number => out[NEEDED] ?? 0

export function unpack(text: string, strings: string, out: Float64Array, names: PackedNames): CheckResult {
  let at = out[KEY_LEN] as number
  const cacheKey = strings.slice(0, at)
  const redactedLength = out[REDACTED_LEN] as number
  let redactedText = text
  if (redactedLength >= 0) {
    redactedText = strings.slice(at, at + redactedLength)
    at += redactedLength
  }
  const armsLength = out[ARMS_LEN] as number
  const suggestedArms = armsLength === 0 ? [] : strings.slice(at, at + armsLength).split(',')
  at += armsLength

  let i = HEADER
  const piiMatches: PiiMatch[] = new Array<PiiMatch>(out[PII_COUNT] as number)
  for (let k = 0; k < piiMatches.length; k++, i += PII_STRIDE) {
    const start = out[i + 1] as number
    const end = out[i + 2] as number
    piiMatches[k] = {
      type: names.piiTypes[out[i] as number] as string,
      start,
      end,
      matchedText: text.slice(start, end),
      confidence: out[i + 3] as number,
    }
  }
  const injectionMatches: InjectionMatch[] = new Array<InjectionMatch>(out[INJECTION_COUNT] as number)
  for (let k = 0; k < injectionMatches.length; k++, i += INJECTION_STRIDE) {
    const start = out[i + 1] as number
    const end = out[i + 2] as number
    injectionMatches[k] = {
      type: names.families[out[i] as number] as string,
      start,
      end,
      matchedText: text.slice(start, end),
      severity: names.severities[out[i + 3] as number] as string,
      confidence: out[i + 4] as number,
    }
  }

  const result: CheckResult = {
    cacheKey,
    piiMatches,
    redactedText,
    injectionScore: out[SCORE] as number,
    severity: names.severities[out[SEVERITY] as number] as string,
    injectionMatches,
    blocked: out[BLOCKED] === 1,
    routing: {
      route: names.routes[out[ROUTE] as number] as string,
      complexity: names.complexities[out[COMPLEXITY] as number] as string,
      suggestedArms,
    },
  }
  const cachedLength = out[CACHED_LEN] as number
  if (cachedLength >= 0) {
    result.cached = {
      value: strings.slice(at, at + cachedLength),
      createdAtMs: out[CREATED_AT] as number,
      expiresAtMs: out[EXPIRES_AT] as number,
    }
  }
  return result
}
