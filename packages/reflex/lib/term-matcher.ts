/**
 * Finds literal terms in text as whole words, case-insensitively, in one Aho-Corasick pass: time
 * linear in the text whatever the terms, so a client's list of terms cannot stall the caller.
 *
 * ```ts
 * const terms = new TermMatcher(['Project Falcon', 'project'])
 * terms.find('PROJECT  falcon, a project, category') // [{ start: 0, end: 15 }, { start: 19, end: 26 }]
 * ```
 *
 * A term matches where no letter, digit (`\p{L}`, `\p{N}`) or `_` stands on either side; case is
 * compared by Unicode simple case folding; white space inside a term matches any run of white space.
 * Where terms overlap, the match starting first wins, and of those starting at the same place the
 * longest that ends as a whole word. Offsets are UTF-16 (`String.prototype.slice`'s).
 */
import { TermMatcher as NativeTermMatcher } from '../bindings/index.js'
import { assertString, coded, REFLEX_ERRORS, ReflexError } from './errors.js'

export interface TermMatch {
  start: number
  end: number
}

export class TermMatcher {
  readonly #native: NativeTermMatcher

  /** Throws `REFLEX_ERR_INVALID_ARGUMENT` unless `terms` is an array of strings. */
  constructor(terms: readonly string[]) {
    if (!Array.isArray(terms)) throw new ReflexError(REFLEX_ERRORS.invalidArgument, 'terms must be an array of strings')
    for (const [i, term] of terms.entries()) assertString(`terms[${i}]`, term)
    this.#native = coded(() => new NativeTermMatcher([...terms]))
  }

  /** The matches in `text`, left to right, not overlapping. */
  find(text: string): TermMatch[] {
    assertString('text', text)
    const flat = coded(() => this.#native.find(text))
    const out: TermMatch[] = []
    for (let i = 0; i + 1 < flat.length; i += 2) out.push({ start: flat[i]!, end: flat[i + 1]! })
    return out
  }
}
