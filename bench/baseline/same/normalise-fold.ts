/**
 * Step 3 of the injection normaliser (port of `crates/reflex-core/src/injection/normalize/fold.rs`
 * and `mixed.rs`): per word, look-alikes and leetspeak folded, then everything lower-cased,
 * with each output code unit mapped to the original span of the unit it came from.
 *
 * Folding a word or a separator depends on nothing but its own characters, and an ASCII word
 * folds by the ASCII rules (`normalise-ascii.ts`): so the units are folded as ASCII first,
 * and then only the words holding a character that is not ASCII, and the non-ASCII characters
 * between words (a dash, a symbol), are folded again a character at a time and spliced in.
 */

import { foldAscii } from './normalise-ascii.js'
import { homoglyph, isLeetSign, isWordCode, latinExtra, leetCode } from './normalise-classes.js'
import { type Units } from './normalise-chars.js'
import { SpanBuilder, spanEnd, spanStart, type Spanned } from './normalise-spans.js'

// Words longer than this are ids, hashes or encodings, not words written in leetspeak.
const MAX_LEET_WORD = 24

/**
 * Folds `units` (the characters left after dropping, decomposing and joining) word by word.
 *
 * @example
 * foldUnits(unitsOf('H1 — ЖУК')).text // 'hi — жук'
 */
export function foldUnits(units: Units): Spanned {
  const lower = foldAscii(lowerAscii(units))
  if (units.wide.every((at) => foldsToItself(units.text, at))) {
    // Nothing but ASCII, or wide characters (dashes, symbols) that stay as they are: the form
    // is the ASCII fold, code unit for code unit, and the spans are the units' own.
    return { text: lower, spans: units.spans }
  }
  return splice(units, lower)
}

/** `units.text` with its ASCII letters lower-cased and every other character left as it is. */
function lowerAscii(units: Units): string {
  const text = units.text
  if (units.wide.length === 0) return text.toLowerCase()
  const parts: string[] = []
  let done = 0
  const wide = units.wide
  for (let w = 0; w < wide.length; ) {
    // A stretch of wide characters one after another (a word in another script) goes whole.
    const at = wide[w]!
    let end = at
    do {
      end += text.codePointAt(end)! > 0xffff ? 2 : 1
      w += 1
    } while (w < wide.length && wide[w] === end)
    parts.push(text.slice(done, at).toLowerCase(), text.slice(at, end))
    done = end
  }
  parts.push(text.slice(done).toLowerCase())
  return parts.join('')
}

/** Whether the character at `at` is no word character and folds to itself (`—`, not `’`). */
function foldsToItself(text: string, at: number): boolean {
  const cp = text.codePointAt(at)!
  const ch = String.fromCodePoint(cp)
  return !isWordCode(cp) && latinExtra(cp) === undefined && ch.toLowerCase() === ch
}

/** The code point that ends just before `i` in `text`. */
function codePointBefore(text: string, i: number): number {
  const low = text.charCodeAt(i - 1)
  if (low >= 0xdc00 && low <= 0xdfff && i >= 2) {
    const high = text.charCodeAt(i - 2)
    if (high >= 0xd800 && high <= 0xdbff) return text.codePointAt(i - 2)!
  }
  return low
}

/** `lower` where it is right; each word with a wide character, and each wide character between words, folded again. */
function splice(units: Units, lower: string): Spanned {
  const text = units.text
  const out = new SpanBuilder(lower.length + 8)
  let done = 0
  for (const at of units.wide) {
    // Inside a word folded already.
    if (at < done) continue
    const cp = text.codePointAt(at)!
    const len = cp > 0xffff ? 2 : 1
    if (!isWordCode(cp)) {
      out.pushSpans(lower.slice(done, at), units, done)
      emitLower(out, latinCode(cp), spanStart(units, at), spanEnd(units, at))
      done = at + len
      continue
    }
    let start = at
    while (start > 0) {
      const before = codePointBefore(text, start)
      if (!isWordCode(before)) break
      start -= before > 0xffff ? 2 : 1
    }
    let end = at + len
    while (end < text.length) {
      const after = text.codePointAt(end)!
      if (!isWordCode(after)) break
      end += after > 0xffff ? 2 : 1
    }
    out.pushSpans(lower.slice(done, start), units, done)
    foldWord(out, units, start, end)
    done = end
  }
  out.pushSpans(lower.slice(done), units, done)
  return out.finish()
}

/** Folds the word `units.text[start..end)` (whole characters) onto `out`. */
function foldWord(out: SpanBuilder, units: Units, start: number, end: number): void {
  const text = units.text
  let count = 0
  let latin = 0
  let glyphs = 0
  let leets = 0
  let digits = 0
  let plain = true
  for (let i = start; i < end; ) {
    const cp = text.codePointAt(i)!
    const len = cp > 0xffff ? 2 : 1
    count += 1
    if ((cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) {
      latin += 1
    } else if (homoglyph(cp) !== undefined) {
      glyphs += 1
      plain = false
    } else if (isLeetSign(cp)) {
      leets += 1
    } else if (cp >= 0x30 && cp <= 0x39) {
      digits += 1
    } else if (cp >= 0x80) {
      plain = false
    }
    i += len
  }
  if (plain && leets === 0) {
    // An ordinary ASCII word only needs lower-casing.
    out.pushSpans(text.slice(start, end).toLowerCase(), units, start)
    return
  }
  // Look-alikes fold beside Latin letters, or when a word is three or more of them only: a
  // Russian word (other Cyrillic letters too) stays Russian.
  const foldGlyphs = glyphs > 0 && (latin > 0 || (glyphs >= 3 && glyphs === count))
  const letters = latin + (foldGlyphs ? glyphs : 0)
  // Only words of letters and leet signs fold ("4ll", "pr3v10u5", not "2nd" or "h264").
  const foldLeet = leets > 0 && letters >= 1 && digits === 0 && count <= MAX_LEET_WORD
  let prev = -1
  for (let i = start; i < end; ) {
    const cp = text.codePointAt(i)!
    let c = latinCode(cp)
    if (foldGlyphs) {
      const g = homoglyph(c)
      if (g !== undefined) c = g.charCodeAt(0)
    }
    if (foldLeet) {
      const l = leetCode(c, prev)
      if (l >= 0) c = l
    }
    // The character before a '1', as Rust's `to_ascii_lowercase` leaves it.
    prev = c >= 0x41 && c <= 0x5a ? c + 0x20 : c
    emitLower(out, c, spanStart(units, i), spanEnd(units, i))
    i += cp > 0xffff ? 2 : 1
  }
}

/** The code point `cp` reads as after `latinExtra` (itself when that has nothing). */
function latinCode(cp: number): number {
  const plain = latinExtra(cp)
  return plain === undefined ? cp : plain.charCodeAt(0)
}

/** Appends code point `cp` lower-cased, each code unit spanning `[start, end)`. */
function emitLower(out: SpanBuilder, cp: number, start: number, end: number): void {
  if (cp < 0x80) {
    out.push(String.fromCharCode(cp >= 0x41 && cp <= 0x5a ? cp + 0x20 : cp), start, end)
    return
  }
  // On one code point `toLowerCase` has no context, so it is Rust's `char::to_lowercase`
  // (final sigma stays σ; İ gives two characters).
  for (const l of String.fromCodePoint(cp).toLowerCase()) {
    const plain = latinExtra(l.codePointAt(0)!)
    out.push(plain ?? l, start, end)
  }
}
