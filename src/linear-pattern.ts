/**
 * A pattern written in JavaScript's syntax, run on the Rust `regex` engine in the addon: time
 * linear in the text whatever the pattern, for patterns over client text too large for the ReDoS
 * check to decide (`LinearRegex` in @ganglion/reflex).
 *
 * ```ts
 * const exit = linearPattern(String.raw`^exit\s+code\s+(\d+)$`, 'i')
 * exit.exec('Exit code 3') // ['Exit code 3', '3'] with index 0
 * ```
 *
 * The escapes whose meaning differs between the engines are written out as JavaScript reads them:
 * `\d`, `\w`, `\s`, `\b` (and their negations) as ASCII digits, ASCII word characters and
 * JavaScript's white space, `.` as any character but a line terminator. Look-around and
 * back-references have no counterpart and are refused when the pattern is compiled. With `i`,
 * letters compare by Unicode simple case folding (so `ſ` matches `s`, where JavaScript without `u`
 * would not).
 */
import { type LinearExecArray, LinearRegex } from '@ganglion/reflex'

export type { LinearExecArray }

const SPACE = String.raw`\t\n\x0B\x0C\r \xA0\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}`
const WORD = '0-9A-Za-z_'

const OUTSIDE: Readonly<Record<string, string>> = {
  b: String.raw`(?-u:\b)`,
  B: String.raw`(?-u:\B)`,
  d: '[0-9]',
  D: '[^0-9]',
  w: `[${WORD}]`,
  W: `[^${WORD}]`,
  s: `[${SPACE}]`,
  S: `[^${SPACE}]`,
}
const INSIDE: Readonly<Record<string, string>> = {
  d: '0-9',
  D: '[^0-9]',
  w: WORD,
  W: `[^${WORD}]`,
  s: SPACE,
  S: `[^${SPACE}]`,
}

const made: LinearPattern[] = []

/** Every pattern compiled so far, to compare each with JavaScript's reading in a test. */
export const linearPatterns: readonly LinearPattern[] = made

export class LinearPattern {
  readonly #regex: LinearRegex

  /** Throws `REFLEX_ERR_INVALID_OPTION` for look-around, back-references or a malformed pattern. */
  constructor(
    readonly source: string,
    readonly flags = '',
  ) {
    this.#regex = new LinearRegex(`${flags.includes('i') ? '(?i)' : ''}${rustSyntax(source, flags.includes('s'))}`)
    made.push(this)
  }

  exec(text: string): LinearExecArray | null {
    return this.#regex.exec(text)
  }

  /** Every match, left to right and not overlapping (as `matchAll` with `g`). */
  execAll(text: string): LinearExecArray[] {
    return this.#regex.execAll(text)
  }

  test(text: string): boolean {
    return this.#regex.test(text)
  }
}

export function linearPattern(source: string, flags = ''): LinearPattern {
  return new LinearPattern(source, flags)
}

/** `source` in the `regex` crate's syntax, with JavaScript's meaning. */
export function rustSyntax(source: string, dotAll = false): string {
  let out = ''
  let inClass = false
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!
    if (ch === '\\') {
      const next = source[i + 1] ?? ''
      const table = inClass ? INSIDE : OUTSIDE
      out += table[next] ?? `\\${next}`
      i++
    } else if (inClass) {
      if (ch === ']') inClass = false
      out += ch
    } else if (ch === '[') {
      inClass = true
      out += ch
      // a leading ']' or '^]' is a literal in both syntaxes only when escaped
      if (source[i + 1] === '^') out += source[++i]
    } else if (ch === '.') {
      out += dotAll ? '(?s:.)' : String.raw`[^\n\r\x{2028}\x{2029}]`
    } else {
      out += ch
    }
  }
  return out
}
