/**
 * The values a template needs, read from a spec's words: integers ("20th" is 20), a list of
 * numbers, the text a string operation is about.
 *
 * ```ts
 * numbersIn('sort 5, -3 and 9.5')        // [5, -3, 9.5]
 * subjectText('reverse "stressed"')      // 'stressed'
 * subjectText('count the words in: a b') // 'a b'
 * ```
 */
import { isWordChar, quotedSpans } from '../../text-scan.js'

/** Numbers as written, ordinals included. */
export function numbersIn(spec: string): number[] {
  const out: number[] = []
  let i = 0
  while (i < spec.length) {
    const end = numberAt(spec, i)
    if (end === -1) {
      i++
      continue
    }
    // "1,000" is one number (groups of three, no space); "5, 3, 9" and "5,3,9" are three.
    const value = Number(
      spec
        .slice(i, end)
        .replace(/(st|nd|rd|th)$/, '')
        .replace(/,/g, ''),
    )
    if (Number.isFinite(value)) out.push(value)
    i = end
  }
  return out
}

const isDigit = (ch: string | undefined) => ch !== undefined && ch >= '0' && ch <= '9'
const SUFFIXES = new Set(['st', 'nd', 'rd', 'th'])

/**
 * Where the number starting at `at` ends, or -1. A number does not start after a word character or
 * a dot, and is `-`, digits, then either comma groups of three (not followed by a digit or a dot:
 * `1,000,000`) or a decimal part and an ordinal suffix, ending at a word boundary.
 */
function numberAt(text: string, at: number): number {
  if (isWordChar(text[at - 1]) || text[at - 1] === '.') return -1
  const from = text[at] === '-' ? at + 1 : at
  let digits = from
  while (isDigit(text[digits])) digits++
  if (digits === from) return -1
  // comma groups: the longest run of ",ddd" after which no digit or dot follows
  if (digits - from <= 3) {
    let groups = digits
    let best = -1
    while (text[groups] === ',' && isDigit(text[groups + 1]) && isDigit(text[groups + 2]) && isDigit(text[groups + 3])) {
      groups += 4
      if (!isDigit(text[groups]) && text[groups] !== '.') best = groups
    }
    if (best !== -1) return best
  }
  if (text[digits] === '.' && isDigit(text[digits + 1])) {
    let decimals = digits + 1
    while (isDigit(text[decimals])) decimals++
    const suffixed = SUFFIXES.has(text.slice(decimals, decimals + 2)) ? decimals + 2 : decimals
    if (!isWordChar(text[suffixed])) return suffixed
    if (!isWordChar(text[decimals])) return decimals
    // the decimal part does not end a word: the integer alone ends before its dot
    return digits
  }
  const suffixed = SUFFIXES.has(text.slice(digits, digits + 2)) ? digits + 2 : digits
  if (!isWordChar(text[suffixed])) return suffixed
  return isWordChar(text[digits]) ? -1 : digits
}

/** The first integer in the spec, or null. */
export function firstInteger(spec: string): number | null {
  const n = numbersIn(spec).find((v) => Number.isInteger(v))
  return n === undefined ? null : n
}

/** Text a string operation works on: quoted (double, curly or backticks, then single), or after a colon. */
export function subjectText(spec: string): string | null {
  const quoted = quotedSpans(spec)[0]
  if (quoted) return quoted.body
  const colon = spec.indexOf(':')
  if (colon !== -1 && spec.slice(colon + 1).trim() !== '') return spec.slice(colon + 1).trim()
  return null
}

/** A JavaScript literal for a string: JSON is valid JavaScript, escapes included. */
export function literal(text: string): string {
  return JSON.stringify(text)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}
