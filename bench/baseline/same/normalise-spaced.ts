/**
 * Step 2 of the injection normaliser (port of `has_spaced_run` and `join_spaced` in
 * `crates/reflex-core/src/injection/normalize.rs`): runs of spaced-out single letters
 * (`i g n o r e`, `i.g.n.o.r.e`) are joined into words.
 */

import { isSpacerCode, isWordCode } from './normalise-classes.js'
import { type Units } from './normalise-chars.js'
import { SpanBuilder } from './normalise-spans.js'

// A gap longer than this (in separators) is not inside a run of spaced-out letters.
const MAX_GAP = 5
// Four letters make a word worth joining; hundreds are a list or a drawing, and one giant
// joined word would only give the patterns a long haystack without spaces.
const MIN_JOINED = 4
const MAX_JOINED = 200

// Four single-letter words in a row, each gap one to five separators: the definition of
// Rust's `has_spaced_run`. A gap of separators holds no word, so the four are consecutive
// words. Each repetition is bounded, so a failed attempt costs a few characters.
const WORD = '[A-Za-z0-9@$]'
const SPACER = '[ .\\-_*/|~]'
const SPACED = new RegExp(`(?<!${WORD})${WORD}(?:${SPACER}{1,${MAX_GAP}}${WORD}){3}(?!${WORD})`)

/**
 * True when `units` hold at least four single letters in a row split by gaps of one to five
 * separators.
 *
 * Text mostly in ASCII is tested by the RegExp, each character that is not ASCII standing as
 * an ASCII one of its class (a letter, a separator, or neither), which is all the test looks
 * at (as in Rust's `mixed.rs`; a RegExp with Unicode property classes gave the same answer at
 * ten times the cost). Text mostly in another script is read a character at a time.
 *
 * @example hasSpacedRun(unitsOf('say i g n o')) // true; hasSpacedRun(unitsOf('a b c')) // false
 */
export function hasSpacedRun(units: Units): boolean {
  const text = units.text
  if (units.wide.length === 0) return SPACED.test(text)
  if (units.wide.length * DENSE > text.length) return hasSpacedRunByChar(text)
  const parts: string[] = []
  let done = 0
  for (const at of units.wide) {
    const cp = text.codePointAt(at)!
    parts.push(text.slice(done, at), isWordCode(cp) ? 'a' : isSpacerCode(cp) ? '.' : ',')
    done = at + (cp > 0xffff ? 2 : 1)
  }
  parts.push(text.slice(done))
  return SPACED.test(parts.join(''))
}

// Past one wide character in this many code units, the stand-in text costs more than it saves.
const DENSE = 8

/** `hasSpacedRun` a character at a time (Rust's general `has_spaced_run`). */
function hasSpacedRunByChar(text: string): boolean {
  let wordLen = 0
  let gap = 0
  let gapBad = true
  let singles = 0
  // A line break after the last character ends the last word.
  for (let i = 0; i <= text.length; ) {
    const cp = i < text.length ? text.codePointAt(i)! : 0x0a
    i += cp > 0xffff ? 2 : 1
    if (isWordCode(cp)) {
      if (wordLen === 0 && gapBad) singles = 0
      wordLen += 1
      continue
    }
    if (wordLen > 0) {
      if (wordLen === 1) {
        singles += 1
        if (singles >= MIN_JOINED) return true
      } else {
        singles = 0
      }
      wordLen = 0
      gap = 0
      gapBad = false
    }
    gap += 1
    if (!isSpacerCode(cp) || gap > MAX_GAP) gapBad = true
  }
  return false
}

/**
 * True when `text`, which is ASCII, holds a run of spaced-out letters (as `hasSpacedRun`).
 *
 * @example hasSpacedRunAscii('i.g.n.o.r.e') // true
 */
export function hasSpacedRunAscii(text: string): boolean {
  return SPACED.test(text)
}

/**
 * `units` without the separators inside runs of four or more single letters. A gap of one or
 * two separators is inside a word and goes; a gap of three to five spaces is between words
 * (`i g n o r e   a l l`) and stays, without ending the run.
 *
 * @example joinSpaced(unitsOf('i.g.n.o.r.e')).text // 'ignore'
 */
export function joinSpaced(units: Units): Units {
  // The walk is by character (code point), as Rust's is by `char`: `at[c]` is where character
  // `c` starts in `units.text`.
  const text = units.text
  const at: number[] = []
  const cps: number[] = []
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!
    at.push(i)
    cps.push(cp)
    i += cp > 0xffff ? 2 : 1
  }
  const n = cps.length
  const word = new Uint8Array(n)
  for (let c = 0; c < n; c++) word[c] = isWordCode(cps[c]!) ? 1 : 0
  const keep = new Uint8Array(n).fill(1)
  const single = (c: number): boolean => word[c] === 1 && (c === 0 || word[c - 1] === 0) && (c + 1 === n || word[c + 1] === 0)
  // The letters of the run being walked, and whether the gap before each goes.
  const letters: number[] = []
  const dropGap: boolean[] = []
  let i = 0
  while (i < n) {
    if (!single(i)) {
      i += 1
      continue
    }
    letters.length = 0
    dropGap.length = 0
    letters.push(i)
    dropGap.push(false)
    let j = i + 1
    for (;;) {
      let k = j
      // Rust reads at most six separators: one past the longest gap, to see that it is too long.
      while (k < n && k - j < MAX_GAP + 1 && isSpacerCode(cps[k]!)) k += 1
      const gap = k - j
      let spaces = true
      for (let m = j; m < k; m++) if (cps[m] !== 0x20) spaces = false
      if (gap >= 1 && gap <= MAX_GAP && (gap <= 2 || spaces) && k < n && single(k)) {
        letters.push(k)
        dropGap.push(gap <= 2)
        j = k + 1
      } else {
        break
      }
    }
    if (letters.length >= MIN_JOINED && letters.length <= MAX_JOINED) {
      for (let w = 1; w < letters.length; w++) {
        if (dropGap[w]) keep.fill(0, letters[w - 1]! + 1, letters[w]!)
      }
    }
    i = Math.max(j, i + 1)
  }
  // Copy the kept characters, a stretch of them at a time.
  const out = new SpanBuilder(text.length)
  const wide: number[] = []
  let c = 0
  while (c < n) {
    if (keep[c] === 0) {
      c += 1
      continue
    }
    let d = c
    while (d < n && keep[d] === 1) {
      if (cps[d]! >= 0x80) wide.push(out.length + at[d]! - at[c]!)
      d += 1
    }
    const lo = at[c]!
    const hi = d < n ? at[d]! : text.length
    out.pushSpans(text.slice(lo, hi), units, lo)
    c = d
  }
  return { ...out.finish(), wide }
}
