/**
 * A text built in pieces with, for each of its UTF-16 code units, the original span it came
 * from: the shape every step of the injection normaliser (`normalise.ts`) passes on.
 *
 * The text is an array of pieces joined once at the end. The spans are `null` while the map
 * is the identity (code unit `i` came from original code unit `i`: ASCII, and most typeset
 * text, whose curly quotes, dashes and accented letters are one code unit for one), and
 * otherwise live in one `Int32Array` (start and end of code unit `i` at `2i` and `2i + 1`), so
 * no step allocates per character.
 */

/** A text and the original span `[spans[2i], spans[2i + 1])` of each code unit `i` of it. */
export interface Spanned {
  text: string
  /** `null` when code unit `i` spans `[i, i + 1)` for every `i`. */
  spans: Int32Array | null
}

/** The start of the span of code unit `i` of `s`. */
export function spanStart(s: Spanned, i: number): number {
  return s.spans === null ? i : s.spans[2 * i]!
}

/** The end of the span of code unit `i` of `s`. */
export function spanEnd(s: Spanned, i: number): number {
  return s.spans === null ? i + 1 : s.spans[2 * i + 1]!
}

/**
 * Appends pieces of text with their spans; `finish` gives the `Spanned` text.
 *
 * @example
 * const b = new SpanBuilder(8)
 * b.pushOriginal('ab', 0) // spans [0, 1), [1, 2): still the identity
 * b.push('fi', 2, 3) // both units span [2, 3): no longer
 * b.finish() // { text: 'abfi', spans: Int32Array [0, 1, 1, 2, 2, 3, 2, 3] }
 */
export class SpanBuilder {
  /** Code units appended so far. */
  length = 0
  private parts: string[] = []
  private spans: Int32Array | null = null

  constructor(private readonly capacity: number) {}

  /** Appends `s`, every code unit spanning original `[start, end)`. */
  push(s: string, start: number, end: number): void {
    if (this.spans === null && s.length === 1 && start === this.length && end === start + 1) {
      this.length += 1
      this.parts.push(s)
      return
    }
    const spans = this.reserve(s.length)
    for (let j = 2 * (this.length - s.length); j < 2 * this.length; j += 2) {
      spans[j] = start
      spans[j + 1] = end
    }
    this.parts.push(s)
  }

  /** Appends `s`, which is original text from index `from` on: code unit `k` spans one unit. */
  pushOriginal(s: string, from: number): void {
    if (this.spans === null && from === this.length) {
      this.length += s.length
      this.parts.push(s)
      return
    }
    const spans = this.reserve(s.length)
    const to = from + s.length
    for (let k = from, j = 2 * (this.length - s.length); k < to; k++, j += 2) {
      spans[j] = k
      spans[j + 1] = k + 1
    }
    this.parts.push(s)
  }

  /** Appends `s`, whose code units have the spans of code units `lo..` of `source`. */
  pushSpans(s: string, source: Spanned, lo: number): void {
    if (s.length === 0) return
    if (source.spans === null) {
      this.pushOriginal(s, lo)
      return
    }
    const spans = this.reserve(s.length)
    spans.set(source.spans.subarray(2 * lo, 2 * (lo + s.length)), 2 * (this.length - s.length))
    this.parts.push(s)
  }

  /** The end of the span of code unit `at` (appended already). */
  endAt(at: number): number {
    return this.spans === null ? at + 1 : this.spans[2 * at + 1]!
  }

  /** Makes the spans of code units `from..` (to the end so far) end at `end`. */
  stretch(from: number, end: number): void {
    const spans = this.reserve(0)
    for (let j = 2 * from + 1; j < 2 * this.length; j += 2) spans[j] = end
  }

  finish(): Spanned {
    return { text: this.parts.join(''), spans: this.spans === null ? null : this.spans.subarray(0, 2 * this.length) }
  }

  /** Makes room for `n` more code units, counts them, and gives the spans to write them in. */
  private reserve(n: number): Int32Array {
    const at = this.length
    this.length += n
    let spans = this.spans
    if (spans === null) {
      // The map stops being the identity here: write out the identity so far.
      spans = new Int32Array(2 * Math.max(this.length, this.capacity, 16))
      for (let i = 0; i < at; i++) {
        spans[2 * i] = i
        spans[2 * i + 1] = i + 1
      }
    } else if (2 * this.length > spans.length) {
      const grown = new Int32Array(Math.max(2 * this.length, 2 * spans.length))
      grown.set(spans.subarray(0, 2 * at))
      spans = grown
    }
    this.spans = spans
    return spans
  }
}
