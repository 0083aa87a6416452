/**
 * The reflex core's PII detection (crates/reflex-core/src/pii/) in plain TypeScript: the same
 * types, validators, context words, exclusions, overlap resolution, confidences and placeholder
 * numbering, so that the native addon is benchmarked against the same work (DESIGN.md §5).
 * Offsets are JS string indices (UTF-16 code units) where the core has UTF-8 byte offsets.
 *
 * The scan is the core's reference scan (the `byte_by_byte` of its `stops.rs` tests, which the
 * core's block scan is tested to equal): every word start goes to `scanWord`, every other
 * character to `scanTrigger`. The core's vector marks only skip words that start nothing.
 *
 * ```ts
 * const text = 'card 4111 1111 1111 1111, mail ada@example.com'
 * const found = detectPii(text)
 * found.map((f) => f.type) // ['CREDIT_CARD', 'EMAIL']
 * redactPlaceholders(text, found) // 'card [CREDIT_CARD_1], mail [EMAIL_1]'
 * ```
 */
import { scanTrigger, scanWord } from './pii-dispatch.js'
import { isWord, utf8Length, type Hit, type PiiType } from './pii-scan.js'

export interface PiiFinding {
  type: string
  start: number
  end: number
  matchedText: string
  confidence: number
}

/** How specific a type is: on overlap the higher rank wins. */
const RANK: Record<PiiType, number> = {
  PRIVATE_KEY: 10,
  API_KEY: 9,
  CRYPTO_WALLET: 9,
  CREDIT_CARD: 8,
  IBAN: 8,
  EMAIL: 8,
  SSN: 7,
  UK_NHS: 7,
  MAC_ADDRESS: 7,
  IP_ADDRESS: 6,
  DATE_OF_BIRTH: 6,
  PASSPORT: 5,
  PASSWORD: 4,
  PHONE: 3,
}

/**
 * Finds personal data in `text`: non-overlapping findings sorted by start.
 *
 * ```ts
 * detectPii('ip 10.0.0.1')[0] // { type: 'IP_ADDRESS', start: 3, end: 11, matchedText: '10.0.0.1', confidence: 0.9 }
 * ```
 */
export function detectPii(text: string): PiiFinding[] {
  const found: Hit[] = []
  let i = 0
  while (i < text.length) {
    if (isWord(text.charCodeAt(i))) {
      i = scanWord(text, i, found)
    } else {
      scanTrigger(text, i, found)
      i++
    }
  }
  return resolve(found, text).map((m) => ({
    type: m.type,
    start: m.start,
    end: m.end,
    matchedText: text.slice(m.start, m.end),
    confidence: m.confidence,
  }))
}

/**
 * Keeps one finding per span of `text`: by rank, then length, then position (stable for full
 * ties, as the core's sort is); returns them sorted by start. Length is the UTF-8 byte length,
 * as the core measures it: `zoë@x.fr` is longer than its eight units.
 */
export function resolve(found: readonly Hit[], text: string): Hit[] {
  if (found.length < 2) return [...found]
  const bytes = new Map(found.map((m) => [m, utf8Length(text.slice(m.start, m.end))]))
  const length = (m: Hit): number => bytes.get(m) as number
  const order = [...found].sort((a, b) => RANK[b.type] - RANK[a.type] || length(b) - length(a) || a.start - b.start)
  // Kept spans are disjoint: mark the units they cover and test a candidate's own units.
  const taken = new Uint8Array(text.length)
  const kept: Hit[] = []
  for (const m of order) {
    let free = true
    for (let k = m.start; k < m.end && free; k++) free = taken[k] === 0
    if (!free) continue
    taken.fill(1, m.start, m.end)
    kept.push(m)
  }
  return kept.sort((a, b) => a.start - b.start)
}

/** Whether index `i` falls between the two halves of a surrogate pair (the core's char boundary). */
function splitsPair(text: string, i: number): boolean {
  const c = text.charCodeAt(i)
  const before = text.charCodeAt(i - 1)
  return c >= 0xdc00 && c <= 0xdfff && before >= 0xd800 && before <= 0xdbff
}

/**
 * Replaces each finding by `[TYPE_n]`, numbered per type in order of appearance, the same value
 * getting the same number (pii/redact.rs). Findings that overlap the previous one, are empty
 * or split a character are skipped.
 *
 * ```ts
 * const t = 'a@x.com b@x.com a@x.com'
 * redactPlaceholders(t, detectPii(t)) // '[EMAIL_1] [EMAIL_2] [EMAIL_1]'
 * ```
 */
export function redactPlaceholders(text: string, found: readonly PiiFinding[]): string {
  const numbers = new Map<string, Map<string, number>>()
  let out = ''
  let cursor = 0
  for (const m of found) {
    if (m.start < cursor || m.end <= m.start || m.end > text.length || splitsPair(text, m.start) || splitsPair(text, m.end)) continue
    const value = text.slice(m.start, m.end)
    let ofType = numbers.get(m.type)
    if (ofType === undefined) numbers.set(m.type, (ofType = new Map()))
    let n = ofType.get(value)
    if (n === undefined) ofType.set(value, (n = ofType.size + 1))
    out += `${text.slice(cursor, m.start)}[${m.type}_${n}]`
    cursor = m.end
  }
  return out + text.slice(cursor)
}
