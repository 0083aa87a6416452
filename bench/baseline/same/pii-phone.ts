/**
 * Phone numbers of the PII port (crates/reflex-core/src/pii/phone.rs): shape first, then
 * digit-count and numbering-plan rules. `+CC …` international (E.164, optional `(0)` trunk),
 * North American with NXX rules, national numbers with a trunk `0` in two groups or more, and
 * anything else only after a context word. Not phones: dates, dotted quads and versions,
 * numbers after "order", "invoice", "ISBN"…, and digit runs inside longer tokens.
 *
 * ```ts
 * findPhone('call (415) 555-2671', 5)?.confidence // 0.9
 * findPhone('order 415-555-2671', 6) // undefined
 * ```
 */
import { at, hit, insideCluster, isAlnum, isDigit, isWord, Keywords, prevWord, same, type Hit } from './pii-scan.js'

const CONTEXT = new Keywords([
  'phone', 'telephone', 'tel', 'call', 'mobile', 'cell', 'fax', 'whatsapp', 'sms', 'text me', 'ring', 'dial',
  'contact', 'reach me', 'landline', 'mob',
])
const NOT_PHONE = new Set([
  'order', 'invoice', 'isbn', 'ref', 'reference', 'id', 'account', 'acct', 'tracking', 'ticket', 'po', 'no',
  'number', 'serial', 'sku', 'case', 'item', 'batch', 'version', 'build', 'issue', 'pr',
])

const MAX_DIGITS = 15

interface Parsed {
  digits: number[]
  groups: number[]
  plus: boolean
  paren: boolean
  dot: boolean
  dash: boolean
  end: number
}

/** A phone number starting at `start` (a digit, `+` or `(`). */
export function findPhone(t: string, start: number): Hit | undefined {
  const first = t.charCodeAt(start)
  if (first === 43 || first === 40) {
    const next = at(t, start + 1)
    if (!isDigit(next) || (start > 0 && isAlnum(t.charCodeAt(start - 1)))) return undefined
    if (first === 43 && next === 48) return undefined
  } else if (insideCluster(t, start)) {
    return undefined
  }
  const p = parse(t, start)
  if (p === undefined) return undefined
  const g = p.groups
  const d = p.digits
  if (d.length < 7 || looksLikeDate(p) || (p.dot && g.length === 4 && g.every((x) => x <= 3))) return undefined
  const context = CONTEXT.before(t, start, 32)
  if (!context && (NOT_PHONE.has(prevWord(t, start)) || (start > 0 && t.charCodeAt(start - 1) === 35))) return undefined
  const nanp = (n: number[]): boolean => n.length === 10 && (n[0] as number) >= 2 && (n[3] as number) >= 2 && !(n[1] === 1 && n[2] === 1)
  // (without context, with a context word just before)
  let plain: number
  let boosted: number
  if (p.plus) {
    if (d.length < 8 && !context) return undefined
    // +1 numbers must also follow the North American plan.
    if (d[0] === 1 && d.length === 11 && !nanp(d.slice(1))) return undefined
    ;[plain, boosted] = [0.88, 0.95]
  } else if ((nanp(d) && (p.paren || same(g, [3, 3, 4]))) || (d.length === 11 && d[0] === 1 && same(g, [1, 3, 3, 4]) && nanp(d.slice(1)))) {
    ;[plain, boosted] = [0.8, 0.9]
  } else if (d[0] === 0 && d[1] !== 0 && d.length >= 9 && d.length <= 11 && g.length >= 2 && !p.paren) {
    ;[plain, boosted] = [0.72, 0.85]
  } else if (context && (g.length >= 2 || d.length === 10 || d.length === 11 || d[0] === 0)) {
    ;[plain, boosted] = [0.8, 0.8]
  } else {
    return undefined
  }
  return hit('PHONE', start, p.end, context ? boosted : plain)
}

/** Digit groups separated by single spaces, dashes or dots, with `(415)` or `(0)` allowed. */
function parse(t: string, start: number): Parsed | undefined {
  const p: Parsed = { digits: [], groups: [], plus: false, paren: false, dot: false, dash: false, end: start }
  let i = start
  if (t.charCodeAt(i) === 43) {
    p.plus = true
    i++
  }
  for (;;) {
    let closing = false
    if (at(t, i) === 40) {
      // "(0)" trunk after the country code.
      if (p.plus && p.groups.length === 1 && at(t, i + 1) === 48 && at(t, i + 2) === 41) {
        i += 3
        if (at(t, i) === 32 || at(t, i) === 45) i++
        continue
      }
      // "(415) 555-2671" opens a national number; "+1 (415) 555-2671" follows the code.
      if (!((p.groups.length === 0 && !p.plus) || (p.groups.length === 1 && p.plus))) return undefined
      p.paren = true
      closing = true
      i++
    }
    const s = i
    while (isDigit(at(t, i))) {
      if (p.digits.length === MAX_DIGITS) return undefined
      p.digits.push(t.charCodeAt(i) - 48)
      i++
    }
    if (i === s || p.groups.length === 8) return undefined
    p.groups.push(i - s)
    if (closing) {
      if (at(t, i) !== 41 || i - s < 1 || i - s > 4) return undefined
      i++
      p.end = i
      if (at(t, i) === 32 || at(t, i) === 45) i++
      if (!isDigit(at(t, i))) return undefined
      continue
    }
    p.end = i
    const sep = at(t, i)
    const next = at(t, i + 1)
    if ((sep === 32 || sep === 45 || sep === 46) && (isDigit(next) || (next === 40 && p.plus))) {
      if (sep === 46) p.dot = true
      if (sep === 45) p.dash = true
      i++
    } else {
      break
    }
  }
  if (isWord(at(t, p.end)) || (p.dot && p.dash)) return undefined
  return p
}

/** `2024-01-15`, `15/01/2024` (the `/` stops the parser), `15.01.2024`, `2024 01 15 10:30`. */
function looksLikeDate(p: Parsed): boolean {
  const g = p.groups
  if (p.plus || p.paren || g.length < 3) return false
  const [a, b, c] = g as [number, number, number]
  return (a === 4 && b <= 2 && c <= 2) || (a <= 2 && b <= 2 && c === 4)
}
