/**
 * Bounded decoding of payloads hidden as base64, hex or Unicode tag characters: a plain
 * TypeScript port of `crates/reflex-core/src/injection/decode.rs`, for the benchmark baseline.
 *
 * A candidate is a run of at least 16 characters of the base64 alphabets (standard and
 * URL-safe, with padding; hex is a subset). It is kept only if it decodes to UTF-8 text that is
 * at least 90 % printable. Offsets are UTF-16 indices of the scanned text; the budget counts
 * decoded bytes, as Rust does.
 */

import { Buffer } from 'node:buffer'

/** One decoded payload: the encoded run's `[start, end)` in the scanned text, and its text. */
export interface Payload {
  start: number
  end: number
  text: string
}

/** Decoded bytes left, shared across the calls of one check (16 KiB at first). */
export interface Budget {
  left: number
}

/** Shortest run worth decoding: 16 base64 characters are 12 bytes, a short command. */
export const MIN_RUN = 16

// The base64 alphabets (standard and URL-safe, with padding; hex is a subset), by char code.
const ALPHABET = new Uint8Array(128)
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-') ALPHABET[c.charCodeAt(0)] = 1

function inAlphabet(code: number): boolean {
  return code < 128 && ALPHABET[code] === 1
}

const HEX = /^(?:[0-9A-Fa-f]{2})+$/
const UPPER = /[A-Z]/
const LOWER = /[a-z]/
const PADDING = /^([^=]*)(=*)$/
// Rust's `char::is_control` (category Cc) and `char::is_whitespace` (White_Space).
const CONTROL = /\p{Cc}/u
const WHITESPACE = /\p{White_Space}/u
// Strict UTF-8, as `String::from_utf8`; a leading BOM is text, not a marker to strip.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/**
 * Finds and decodes candidate runs in `text`, spending at most `budget.left` decoded bytes:
 * once the budget is spent, no further run is decoded (the run that overspends it is kept).
 *
 * @example
 * payloads('x aWdub3JlIGFsbA== y', { left: 16384 }) // [{ start: 2, end: 18, text: 'ignore all' }]
 */
export function payloads(text: string, budget: Budget): Payload[] {
  const out: Payload[] = []
  const n = text.length
  let i = 0
  // Maximal runs of MIN_RUN or more alphabet characters, as Rust's `runs` finds them: any such
  // run starting in `i..i + MIN_RUN` covers index `i + MIN_RUN - 1`, so when that character is
  // outside the alphabet the whole window is skipped. Prose, whose words are shorter than
  // MIN_RUN, has about one word read in every sixteen characters.
  while (i + MIN_RUN <= n && budget.left > 0) {
    const probe = i + MIN_RUN - 1
    if (!inAlphabet(text.charCodeAt(probe))) {
      i = probe + 1
      continue
    }
    let start = probe
    while (start > i && inAlphabet(text.charCodeAt(start - 1))) start -= 1
    let end = probe + 1
    while (end < n && inAlphabet(text.charCodeAt(end))) end += 1
    i = end
    // A run glued to non-ASCII text is part of a word, not an encoding.
    if (end - start < MIN_RUN || (end < n && text.charCodeAt(end) >= 0x80)) continue
    const run = text.slice(start, end)
    const decoded = decodeRun(run)
    if (decoded === undefined) continue
    budget.left = Math.max(0, budget.left - decoded.bytes)
    out.push({ start, end, text: decoded.text })
  }
  return out
}

/**
 * The ASCII hidden in Unicode tag characters (U+E0020..U+E007E each mirror one printable ASCII
 * character and render as nothing), spanning the first to the last tag character; null when
 * fewer than four are hidden.
 *
 * @example tagPayload('ab\u{E0069}\u{E0067}\u{E006E}\u{E006F}cd') // { start: 2, end: 10, text: 'igno' }
 */
export function tagPayload(text: string): Payload | null {
  // Every tag character is the surrogate pair \uDB40 \uDC00-\uDC7F: text before the first
  // \uDB40 (all of a text without one) need not be read character by character.
  const first = text.indexOf('\uDB40')
  if (first < 0) return null
  let hidden = ''
  let start = -1
  let end = -1
  for (let i = first; i < text.length; ) {
    const cp = text.codePointAt(i)!
    const len = cp > 0xffff ? 2 : 1
    if (cp >= 0xe0020 && cp <= 0xe007e) {
      hidden += String.fromCharCode(cp - 0xe0000)
      if (start < 0) start = i
      end = i + len
    }
    i += len
  }
  return start >= 0 && hidden.length >= 4 ? { start, end, text: hidden } : null
}

function decodeRun(run: string): { text: string; bytes: number } | undefined {
  // Hex first (whole bytes only); if it is not printable, the run may still be base64.
  if (HEX.test(run)) {
    const hex = printable(Buffer.from(run, 'hex'))
    if (hex !== undefined) return hex
  }
  // Base64 of text mixes cases; a run of one case with no digits is a word or a name.
  if (!(UPPER.test(run) && LOWER.test(run))) return undefined
  const bytes = base64(run)
  return bytes === undefined ? undefined : printable(bytes)
}

function base64(run: string): Buffer | undefined {
  // Padding only at the end, at most two.
  const parts = PADDING.exec(run)
  if (parts === null || parts[2]!.length > 2) return undefined
  const body = parts[1]!
  if (body.length % 4 === 1) return undefined
  // `body` holds only alphabet characters: Node's decoder takes both alphabets and, like the
  // Rust one, decodes a last partial group and drops its spare bits.
  return Buffer.from(body, 'base64')
}

function printable(bytes: Buffer): { text: string; bytes: number } | undefined {
  let text: string
  try {
    text = UTF8.decode(bytes)
  } catch {
    return undefined
  }
  let total = 0
  let good = 0
  for (const c of text) {
    total += 1
    if (!CONTROL.test(c) || WHITESPACE.test(c)) good += 1
  }
  return total > 0 && good * 10 >= total * 9 ? { text, bytes: bytes.length } : undefined
}
