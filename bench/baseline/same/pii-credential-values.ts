/**
 * What counts as a credential's value in the PII port (crates/reflex-core/src/pii/password.rs,
 * second half): reading a quoted or bare value, telling secrets from prose, placeholders and
 * code (`${DB_PASS}`, `getenv(…)`, `YOUR_API_KEY_HERE`).
 *
 * ```ts
 * readValue('password="s3cr3t" x', 9) // [10, 16, true]
 * plausible('changeme', false) // false
 * secretShape('Kp4-xR8-mN2') // true
 * ```
 */
import { asciiLower, at, isAlnum, isAlpha, isDigit, isPunct, utf8Length } from './pii-scan.js'

/** Unquoted values that are prose or placeholders, not secrets. */
const NOT_VALUES = new Set([
  'must', 'should', 'will', 'the', 'and', 'not', 'required', 'optional', 'none', 'null', 'nil', 'empty',
  'your', 'you', 'this', 'that', 'was', 'has', 'have', 'incorrect', 'invalid', 'reset', 'changed',
  'expired', 'field', 'string', 'true', 'false', 'undefined', 'hidden', 'redacted', 'masked', 'see',
  'enter', 'type', 'use', 'please', 'password', 'passwd', 'pass', 'pwd', 'secret', 'changeme', 'then',
  'here', 'below', 'above', 'again', 'when', 'for', 'from', 'with',
])

/** Placeholders and elisions anywhere in a value, in any case. */
const FILLER = /\.\.\.|…|xxxx|\*\*\*\*/i
/** `$PW`, `$DB_PASS`: a shell variable. */
const SHELL_VARIABLE = /^\$[A-Za-z][$_A-Za-z0-9]*$/
/** `!vault`: a YAML tag announcing a value on the following lines. */
const YAML_TAG = /^![a-z_]*$/
/** `YOUR_API_KEY_HERE`: a constant's name. */
const CONSTANT = /^[A-Z][A-Z0-9_]*$/
/** `process.env.DB_PASS`: dotted identifiers without digits. */
const DOTTED = /^[A-Za-z_]+(?:\.[A-Za-z_]+)+$/
const QUOTES = new Set([34, 39, 96])
/** A bare value's run: up to ASCII whitespace, a delimiter or an `&`. */
const BARE = /[^ \t\n\f\r,;"'<>)}\]&]*/y

/**
 * The value starting at `i`: quoted (to the closing quote on the same line, backslash escapes
 * skipped) or bare (to whitespace or a delimiter, less trailing `.`/`:`). A bare value stops at
 * `&` only where a query string carries on (`&grant=1`), so `Tr0ub4dor&3` stays whole.
 * Returns [start, end, quoted], or undefined (no value, or an elided `sk-..`).
 */
export function readValue(t: string, i: number): [number, number, boolean] | undefined {
  const quote = at(t, i)
  if (QUOTES.has(quote)) {
    const open = i + 1
    let e = open
    while (e < t.length && t.charCodeAt(e) !== quote && t.charCodeAt(e) !== 10) {
      e += t.charCodeAt(e) === 92 && e + 1 < t.length && t.charCodeAt(e + 1) !== 10 ? 2 : 1
    }
    return e < t.length && t.charCodeAt(e) === quote && e > open ? [open, e, true] : undefined
  }
  let e = i
  for (;;) {
    BARE.lastIndex = e
    BARE.test(t)
    e = BARE.lastIndex
    // `&` carries on unless a query parameter follows.
    if (t.charCodeAt(e) !== 38 || queryParam(t, e + 1)) break
    e++
  }
  if (e >= i + 2 && t.startsWith('..', e - 2)) return undefined
  while (e > i && (t.charCodeAt(e - 1) === 46 || t.charCodeAt(e - 1) === 58)) e--
  return e > i ? [i, e, false] : undefined
}

/** `name=` at `i`: the next parameter of a query string. */
function queryParam(t: string, i: number): boolean {
  let n = 0
  while (n < 64 && i + n < t.length) {
    const c = t.charCodeAt(i + n)
    if (!(isAlnum(c) || c === 95 || c === 45 || c === 46 || c === 91 || c === 93)) break
    n++
  }
  return n > 0 && at(t, i + n) === 61
}

/** Whether `v` can be a secret: not too short or long, no placeholder, no prose, no code. */
export function plausible(v: string, quoted: boolean): boolean {
  const bytes = utf8Length(v)
  if (bytes < 3 || bytes > 256) return false
  // `${DB_PASS}`, `$(cat f)`, `$PW`, `{{ secret }}`, `<password>`, `%(pw)s`, `%PW%`.
  if (
    v.startsWith('${') ||
    v.startsWith('$(') ||
    SHELL_VARIABLE.test(v) ||
    v.startsWith('{{') ||
    v.startsWith('<') ||
    v.startsWith('%(') ||
    (v[0] === '%' && v[v.length - 1] === '%')
  ) {
    return false
  }
  if (/^[*xX.]*$/.test(v) || FILLER.test(v)) return false
  if (quoted) return true
  if (NOT_VALUES.has(asciiLower(v))) return false
  // Structure (JSON, YAML) or a path (`pwd: /home/ada`), a YAML tag, or code.
  const first = v.charCodeAt(0)
  const structure = first === 91 || first === 123 || first === 40 || first === 47
  return !structure && !v.startsWith('~/') && !v.startsWith('./') && !YAML_TAG.test(v) && !code(v)
}

/** Code reading the secret from elsewhere: a call or index, a dotted name, a constant's name. */
function code(v: string): boolean {
  if (v.includes('(') || v.includes('[')) return true
  return DOTTED.test(v) || (v.includes('_') && CONSTANT.test(v))
}

/**
 * A bare word that reads as a secret rather than prose: six bytes or more with a letter and a
 * digit or a symbol (`Kp4-xR8-mN2`, `Gato$Negro`), or a long hyphenated passphrase.
 */
export function secretShape(v: string): boolean {
  let letter = false
  let digit = false
  let symbol = false
  let hyphens = 0
  for (let k = 0; k < v.length; k++) {
    const c = v.charCodeAt(k)
    letter ||= isAlpha(c)
    digit ||= isDigit(c)
    symbol ||= isPunct(c) && c !== 45 && c !== 39
    if (c === 45) hyphens++
  }
  const len = utf8Length(v)
  return letter && (((digit || symbol) && len >= 6) || (len >= 12 && hyphens >= 3))
}
