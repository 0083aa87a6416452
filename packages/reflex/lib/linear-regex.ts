/**
 * A regular expression matched by the Rust `regex` engine: time linear in the text whatever the
 * pattern, for patterns that run over client text where a backtracking engine could stall.
 *
 * ```ts
 * const exit = new LinearRegex(String.raw`(?i)^exit\s+code\s+(\d+)$`)
 * exit.exec('Exit code 3') // ['Exit code 3', '3'] with index 0
 * exit.test('exit code') // false
 * new LinearRegex('x([0-9])').execAll('x1 x2').map((m) => m.index) // [0, 3]
 * ```
 *
 * The syntax is the `regex` crate's (flags inline: `(?i)`, `(?s)`); it has no look-around and no
 * back-references. Unlike JavaScript, `\w`, `\d`, `\s` and `\b` are Unicode-aware there unless
 * written in ASCII mode (`(?-u:\b)`) or as explicit classes (`[0-9]`).
 */
import { type LinearMatch, LinearRegex as NativeLinearRegex } from '../bindings/index.js'
import { assertString, coded } from './errors.js'

/** A match as `RegExp.prototype.exec` gives it: the whole match, then each group, and its UTF-16 index. */
export type LinearExecArray = Array<string | undefined> & { index: number }

export class LinearRegex {
  readonly #native: NativeLinearRegex

  /** Throws `REFLEX_ERR_INVALID_OPTION` with the parser's message for a pattern it refuses. */
  constructor(pattern: string) {
    assertString('pattern', pattern)
    this.#native = coded(() => new NativeLinearRegex(pattern))
  }

  /** The first match and its groups (`undefined` for a group that took no part), or null. */
  exec(text: string): LinearExecArray | null {
    assertString('text', text)
    const found = coded(() => this.#native.captures(text))
    return found === null || found === undefined ? null : execArray(found)
  }

  /** Every match, left to right and not overlapping, as `String.prototype.matchAll` with `g`. */
  execAll(text: string): LinearExecArray[] {
    assertString('text', text)
    return coded(() => this.#native.capturesAll(text)).map(execArray)
  }

  test(text: string): boolean {
    assertString('text', text)
    return coded(() => this.#native.test(text))
  }
}

function execArray(found: LinearMatch): LinearExecArray {
  return Object.assign(
    found.groups.map((g) => g ?? undefined),
    { index: found.index },
  )
}
