/**
 * Step 1 of the injection normaliser on a text that is not ASCII (port of
 * `crates/reflex-core/src/injection/normalize/chars.rs`): each character of the original is
 * dropped, kept, or decomposed into units that keep its original span. ASCII stretches are
 * copied whole; only the other characters go one at a time.
 */

import { isSpacerCode, isWordCode, latinExtra } from './normalise-classes.js'
import { SpanBuilder, type Spanned } from './normalise-spans.js'

/** The units of a text laid end to end, and where each unit that is not ASCII starts. */
export interface Units extends Spanned {
  /** Index in `text` of each character that is not ASCII, in order. */
  wide: number[]
}

const NOT_ASCII = /[^\x00-\x7F]/g

// Zero-width characters, the soft hyphen, invisible operators, bidi controls and tag characters:
// they render as nothing, so they only ever hide a word from the patterns.
function isInvisible(cp: number): boolean {
  return (
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x2060 && cp <= 0x2064) ||
    cp === 0xfeff ||
    cp === 0xad ||
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2066 && cp <= 0x2069) ||
    (cp >= 0xe0000 && cp <= 0xe007f)
  )
}

// Scripts whose letters must stay whole: NFKD would split `й`, `が` or a Hangul syllable.
function keepsWhole(cp: number): boolean {
  return (
    (cp >= 0x0370 && cp <= 0x052f) ||
    (cp >= 0x0600 && cp <= 0x06ff) ||
    (cp >= 0x3040 && cp <= 0x30ff) ||
    (cp >= 0x3400 && cp <= 0x9fff) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0x1100 && cp <= 0x11ff)
  )
}

// Combining diacritics, and the Arabic vowel signs that are optional in writing.
function isMark(cp: number): boolean {
  return (cp >= 0x0300 && cp <= 0x036f) || (cp >= 0x064b && cp <= 0x065f) || cp === 0x0670
}

/**
 * The ASCII quote the fold would give `d` (`’` → `'`), when neither `d` nor the quote is a
 * word character or a separator: no step before the fold tells them apart, so folding it here
 * changes nothing but where it happens (and leaves no wide unit for the fold to splice).
 */
function asciiQuote(cp: number): string | undefined {
  if (!(cp === 0xab || cp === 0xbb || (cp >= 0x2018 && cp <= 0x2033))) return undefined
  const q = latinExtra(cp)
  if (q === undefined) return undefined
  const qc = q.charCodeAt(0)
  return qc < 0x80 && !isWordCode(cp) && !isSpacerCode(cp) && !isWordCode(qc) && !isSpacerCode(qc) ? q : undefined
}

/** Collects units, remembering the last one (a combining mark may stretch its span). */
class UnitBuilder extends SpanBuilder {
  readonly wide: number[] = []
  /** Where the last unit starts, and its code point (-1 before the first). */
  lastAt = 0
  lastCp = -1

  ascii(text: string, lo: number, hi: number): void {
    this.pushOriginal(text.slice(lo, hi), lo)
    this.lastAt = this.length - 1
    this.lastCp = text.charCodeAt(hi - 1)
  }

  unit(ch: string, cp: number, start: number, end: number): void {
    this.lastAt = this.length
    this.lastCp = cp
    if (cp >= 0x80) this.wide.push(this.length)
    this.push(ch, start, end)
  }
}

/**
 * The units of `text`: ASCII copied, invisible characters dropped, marks joined to the
 * letter before them, other characters decomposed (NFKD, marks dropped) unless their script
 * must stay whole.
 *
 * @example
 * const u = unitsOf('a\u200Bé ﬁ')
 * u.text // 'ae fi'; the spans of 'f' and 'i' are both [4, 5)
 */
export function unitsOf(text: string): Units {
  const out = new UnitBuilder(text.length + 16)
  let i = 0
  NOT_ASCII.lastIndex = 0
  while (i < text.length) {
    const m = NOT_ASCII.exec(text)
    const next = m === null ? text.length : m.index
    if (next > i) out.ascii(text, i, next)
    if (next >= text.length) break
    const cp = text.codePointAt(next)!
    const end = next + (cp > 0xffff ? 2 : 1)
    pushChar(out, text.slice(next, end), cp, next, end)
    i = end
    NOT_ASCII.lastIndex = end
  }
  const done = out.finish()
  return { ...done, wide: out.wide }
}

/** The units of the character `ch` (code point `cp`, not ASCII) spanning `[start, end)`. */
function pushChar(out: UnitBuilder, ch: string, cp: number, start: number, end: number): void {
  if (isInvisible(cp)) return
  if (isMark(cp)) {
    // A mark typed separately: drop it but keep it inside the span of its base letter.
    if (out.lastCp >= 0 && out.endAt(out.lastAt) === start && !keepsWhole(out.lastCp)) {
      out.stretch(out.lastAt, end)
      return
    }
    // Arabic vowel signs are dropped wherever they are; a stray combining diacritic stays.
    if (cp <= 0x036f) out.unit(ch, cp, start, end)
    return
  }
  if (keepsWhole(cp)) {
    out.unit(ch, cp, start, end)
    return
  }
  // Rust's `decompose_compatible` on one character is its NFKD; marks go (accent stripping).
  for (const d of ch.normalize('NFKD')) {
    const dc = d.codePointAt(0)!
    if (isMark(dc)) continue
    const q = asciiQuote(dc)
    if (q === undefined) out.unit(d, dc, start, end)
    else out.unit(q, q.charCodeAt(0), start, end)
  }
}
