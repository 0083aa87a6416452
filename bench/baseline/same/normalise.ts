/**
 * The injection detector's detection form of a text, with a map back to the original: a plain
 * TypeScript port of `crates/reflex-core/src/injection/normalize.rs` (and `normalize/*.rs`),
 * for the benchmark baseline only.
 *
 * In order (as the Rust header describes):
 * 1. per character (`normalise-chars.ts`): zero-width, bidi and tag characters dropped; outside
 *    the scripts NFKD would split, compatibility decomposition with combining marks dropped
 *    (`ｉｇｎｏｒｅ` → `ignore`, `précédentes` → `precedentes`);
 * 2. runs of at least four single letters split by short gaps joined (`normalise-spaced.ts`);
 * 3. per word (`normalise-fold.ts`, `normalise-ascii.ts`): look-alikes and leetspeak folded,
 *    everything lower-cased, curly quotes made ASCII.
 *
 * As in Rust, plain ASCII with no spaced-out letters (most text) takes a path where every step
 * is one code unit for one code unit: the map is the identity and is not built. Other text
 * keeps its map in a typed array, built only once the identity breaks (typeset text whose
 * quotes, dashes and accents are one code unit for one often keeps none). All indices are
 * UTF-16 code units.
 */

import { foldAscii } from './normalise-ascii.js'
import { unitsOf } from './normalise-chars.js'
import { foldUnits } from './normalise-fold.js'
import { hasSpacedRun, hasSpacedRunAscii, joinSpaced } from './normalise-spaced.js'
import { type Spanned } from './normalise-spans.js'

/** The detection form of a text, with maps back to the original. */
export interface Normalised {
  /** The detection form. */
  text: string
  /** The input was ASCII (and so is `text`). */
  fromAscii: boolean
  /** Maps normalised `[start, end)` (end > start) to the original `[start, end)`. */
  originalSpan(start: number, end: number): [number, number]
  /** The first normalised index whose character came from original index `pos` or later. */
  normalisedPos(pos: number): number
}

const ASCII = /^[\x00-\x7F]*$/

/** A form whose code unit `i` came from original code unit `i`: no map is kept. */
class IdentityForm implements Normalised {
  constructor(
    readonly text: string,
    readonly fromAscii: boolean,
    // Rust keeps no map on its ASCII path and gives a range back as it is; elsewhere its map
    // (the identity here) gives an empty range the span of the character at its start.
    private readonly mapless: boolean,
  ) {}

  originalSpan(start: number, end: number): [number, number] {
    return [start, this.mapless ? end : Math.max(end, start + 1)]
  }

  normalisedPos(pos: number): number {
    return Math.min(pos, this.text.length)
  }
}

class MappedForm implements Normalised {
  constructor(
    readonly text: string,
    readonly fromAscii: boolean,
    // For code unit `i` of `text`, the original span of the character it came from is
    // `[spans[2i], spans[2i + 1])`.
    private readonly spans: Int32Array,
  ) {}

  originalSpan(start: number, end: number): [number, number] {
    // As Rust: an empty range maps as the one character at `start`.
    const last = Math.max(end, start + 1) - 1
    return [this.spans[2 * start]!, this.spans[2 * last + 1]!]
  }

  normalisedPos(pos: number): number {
    // The starts never decrease: binary search for the first one >= pos.
    let lo = 0
    let hi = this.text.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.spans[2 * mid]! < pos) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}

/**
 * Builds the detection form of `text`.
 *
 * @example
 * const n = normalise('xx Ig\u200Bn0re')
 * n.text // 'xx ignore'
 * n.originalSpan(3, 9) // [3, 10]: 'Ig\u200Bn0re'
 */
export function normalise(text: string): Normalised {
  if (ASCII.test(text)) {
    if (!hasSpacedRunAscii(text)) return new IdentityForm(foldAscii(text.toLowerCase()), true, true)
    return form(foldUnits(joinSpaced({ text, spans: null, wide: [] })), true)
  }
  let units = unitsOf(text)
  if (hasSpacedRun(units)) units = joinSpaced(units)
  return form(foldUnits(units), false)
}

function form(folded: Spanned, fromAscii: boolean): Normalised {
  return folded.spans === null ? new IdentityForm(folded.text, fromAscii, false) : new MappedForm(folded.text, fromAscii, folded.spans)
}
