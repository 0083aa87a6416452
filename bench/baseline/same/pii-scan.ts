/**
 * Character helpers shared by the PII detectors of the plain-TypeScript port
 * (crates/reflex-core/src/pii/scan.rs): classes, boundary rules, digit groups and the
 * "is this keyword just before the candidate?" lookup. Everything works on UTF-16 code units
 * where the core works on UTF-8 bytes; a unit >= 0x80 plays the part of a non-ASCII byte.
 *
 * ```ts
 * insideCluster('a456-4266', 5) // true: a fragment of a longer token
 * new Keywords(['call']).before('please call me at ', 18, 32) // true
 * ```
 */

/** One finding, as the port reports it (`matchedText` is filled in by `detectPii`). */
export interface Hit {
  type: PiiType
  start: number
  end: number
  confidence: number
}

export type PiiType =
  | 'EMAIL'
  | 'PHONE'
  | 'CREDIT_CARD'
  | 'SSN'
  | 'IBAN'
  | 'IP_ADDRESS'
  | 'MAC_ADDRESS'
  | 'CRYPTO_WALLET'
  | 'API_KEY'
  | 'PRIVATE_KEY'
  | 'PASSWORD'
  | 'DATE_OF_BIRTH'
  | 'UK_NHS'
  | 'PASSPORT'

/** Shorthand for building a finding. */
export function hit(type: PiiType, start: number, end: number, confidence: number): Hit {
  return { type, start, end, confidence }
}

/** The code unit at `i`, or 0 outside the text (0 is in no class the detectors look for). */
export function at(t: string, i: number): number {
  return i >= 0 && i < t.length ? t.charCodeAt(i) : 0
}

export const isDigit = (c: number): boolean => c >= 48 && c <= 57
export const isUpper = (c: number): boolean => c >= 65 && c <= 90
export const isLower = (c: number): boolean => c >= 97 && c <= 122
export const isAlpha = (c: number): boolean => isUpper(c) || isLower(c)
export const isAlnum = (c: number): boolean => isAlpha(c) || isDigit(c)
export const isHex = (c: number): boolean => isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102)
/** `[A-Za-z0-9_]`: what the main scan treats as one word. */
export const isWord = (c: number): boolean => isAlnum(c) || c === 95
/** ASCII whitespace as Rust's `u8::is_ascii_whitespace` has it (no vertical tab). */
export const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 12 || c === 13
/** ASCII punctuation: `!` to `/`, `:` to `@`, `[` to `` ` ``, `{` to `~`. */
export const isPunct = (c: number): boolean => (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126)

/** ASCII-only lower case, as Rust's `to_ascii_lowercase` (non-ASCII letters are left alone). */
export function asciiLower(s: string): string {
  return HAS_UPPER.test(s) ? s.replace(UPPER_RUNS, (m) => m.toLowerCase()) : s
}
const HAS_UPPER = /[A-Z]/
const UPPER_RUNS = /[A-Z]+/g

/** Whether `t` at `i` holds the lower-case `word`, ASCII letters in any case (`eq_ignore_ascii_case`). */
export function startsWithAnyCase(t: string, i: number, word: string): boolean {
  if (i < 0 || i + word.length > t.length) return false
  for (let k = 0; k < word.length; k++) {
    const c = t.charCodeAt(i + k)
    if ((isUpper(c) ? c | 0x20 : c) !== word.charCodeAt(k)) return false
  }
  return true
}

/** Length of the run of units from `i` satisfying `f`, looking at no more than `max` of them. */
export function runLen(t: string, i: number, max: number, f: (c: number) => boolean): number {
  let n = 0
  while (n < max && i + n < t.length && f(t.charCodeAt(i + n))) n++
  return n
}

/**
 * True when position `i` continues a larger token (the `4567` of `123-4567-89` or `a.4567`):
 * numbers found there are fragments (GUIDs, versions, order numbers), not PII.
 */
export function insideCluster(t: string, i: number): boolean {
  if (i === 0) return false
  const prev = t.charCodeAt(i - 1)
  // After `+` the phone detector owns the number.
  if (isWord(prev) || prev === 43) return true
  if (i < 2) return false
  const before = t.charCodeAt(i - 2)
  // `-` `/` `.` `,` `#` after an alphanumeric; `:` only after a digit (`10:30`), so that
  // `card:4111…` is a label and its value.
  if (prev === 45 || prev === 47 || prev === 46 || prev === 44 || prev === 35) return isAlnum(before)
  if (prev === 58) return isDigit(before)
  return false
}

/** True when `end` is a clean right edge for a number: no word unit, no `-./:` then a digit. */
export function cleanEnd(t: string, end: number): boolean {
  const next = at(t, end)
  if (isWord(next)) return false
  return !((next === 45 || next === 46 || next === 47 || next === 58) && isDigit(at(t, end + 1)))
}

/** A list of lower-case context keywords, looked up just before a candidate. */
export class Keywords {
  constructor(readonly words: readonly string[]) {}

  /**
   * Whether one of the words lies in the `window` bytes (UTF-8, as in the core) before `pos`,
   * ending by `pos` and starting on a word boundary (not after an ASCII letter), in any case.
   */
  before(t: string, pos: number, window: number): boolean {
    const from = backBy(t, pos, window)
    let afterLetter = from > 0 && isAlpha(t.charCodeAt(from - 1))
    for (let k = from; k < pos; k++) {
      const letter = isAlpha(t.charCodeAt(k))
      if (letter && !afterLetter) {
        for (const w of this.words) {
          if (k + w.length <= pos && startsWithAnyCase(t, k, w)) return true
        }
      }
      afterLetter = letter
    }
    return false
  }
}

/**
 * The word (ASCII letters only, lowercased, at most 16) ending just before `pos`, skipping
 * spaces, tabs and `:#=`: "version 1.2.3.4", "order #555-1234".
 */
export function prevWord(t: string, pos: number): string {
  let j = pos
  while (j > 0 && ' \t:#='.includes(t[j - 1] as string)) j--
  const end = j
  while (j > 0 && isAlpha(t.charCodeAt(j - 1)) && end - j < 16) j--
  return asciiLower(t.slice(j, end))
}

/** Digits read by `readDigits`, in groups separated by one separator used throughout. */
export interface DigitRun {
  digits: number[]
  groups: number[]
  sep: number
  end: number
  /** More digits (or groups) followed than allowed: the number is longer than wanted. */
  overflow: boolean
}

/**
 * Reads up to `max` digits from `start`, groups separated by one unit of `seps` (the same
 * each time, and only when a digit follows), at most eight groups.
 */
export function readDigits(t: string, start: number, max: number, seps: string): DigitRun {
  const d: DigitRun = { digits: [], groups: [], sep: 0, end: start, overflow: false }
  let i = start
  for (;;) {
    const g0 = i
    while (i < t.length && isDigit(t.charCodeAt(i))) {
      if (d.digits.length === max) {
        d.overflow = true
        return d
      }
      d.digits.push(t.charCodeAt(i) - 48)
      i++
    }
    if (i === g0 || d.groups.length === 8) {
      d.overflow = d.groups.length === 8
      return d
    }
    d.groups.push(i - g0)
    d.end = i
    const s = at(t, i)
    if (s !== 0 && seps.includes(String.fromCharCode(s)) && (d.sep === 0 || d.sep === s) && isDigit(at(t, i + 1))) {
      d.sep = s
      i++
    } else {
      return d
    }
  }
}

/** Whether two arrays of numbers are equal. */
export function same(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, k) => x === b[k])
}

/** How many UTF-8 bytes the code unit `c` stands for (a surrogate: half of a 4-byte char). */
export function unitBytes(c: number): number {
  return c < 0x80 ? 1 : c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 2 : 3
}

/**
 * The index from which the text up to `pos` is at most `bytes` UTF-8 bytes long: the core's
 * look-back windows are byte counts. (A character the core's window would cut in two is left
 * out whole; it never starts a keyword either way.)
 */
export function backBy(t: string, pos: number, bytes: number): number {
  let from = pos
  let used = 0
  while (from > 0) {
    const size = unitBytes(t.charCodeAt(from - 1))
    if (used + size > bytes) break
    used += size
    from--
  }
  return from
}

/** UTF-8 bytes of `t[from..to)`, a lone surrogate counted as half of its character. */
export function bytesBetween(t: string, from: number, to: number): number {
  let bytes = 0
  for (let k = from; k < to; k++) bytes += unitBytes(t.charCodeAt(k))
  return bytes
}

/**
 * The run of units from `i` satisfying `f` while fewer than `maxBytes` UTF-8 bytes are taken,
 * as [units, bytes]. A character that crosses the limit is taken whole (bytes > maxBytes): the
 * core, counting bytes, would stop inside it.
 */
export function runBytes(t: string, i: number, maxBytes: number, f: (c: number) => boolean): [number, number] {
  let n = 0
  let bytes = 0
  while (bytes < maxBytes && i + n < t.length && f(t.charCodeAt(i + n))) {
    bytes += unitBytes(t.charCodeAt(i + n))
    n++
  }
  return [n, bytes]
}

/** UTF-8 length of `s`: value-length thresholds are byte counts in the core. */
export function utf8Length(s: string): number {
  return Buffer.byteLength(s, 'utf8')
}
