/**
 * The cache key of a check, the plain-TypeScript port of crates/reflex-core/src/normalize/
 * (`normalize_for_key` and `cache_key`): texts that differ only in case, Unicode form or
 * white space share one key.
 *
 * The key has the Rust key's format, 32 lower-case hex characters with no prefix, but not its
 * value: Rust hashes with XXH3-128, which node does not ship, so this takes the first 128 bits
 * of SHA-256 over the same bytes (the folded text in UTF-8, then the flags byte).
 *
 * ```ts
 * normalizeForKey('  Hello\t\n WORLD ')                          // 'hello world'
 * cacheKey('Hello world', 0) === cacheKey('hello   WORLD', 0)      // true
 * cacheKey('hello world', keyFlags({ checkPii: false })).length   // 32
 * ```
 */
import { createHash } from 'node:crypto'

/** Which parts of a check run, as the addon's `CheckFlags` (each defaults to on). */
export interface KeyFlagOptions {
  checkPii?: boolean | null
  checkInjection?: boolean | null
  useCache?: boolean | null
}

/**
 * The flags byte mixed into the key: PII 1, injection 2 (`CHECK_FLAGS` in
 * src/reflex/engine.ts, Rust's `CheckOptions::key_flags`). `useCache` (4 in `CHECK_FLAGS`) is
 * left out as Rust leaves it out: a check that skips the cache finds what one that uses it does.
 */
export function keyFlags(options: KeyFlagOptions = {}): number {
  return (options.checkPii ?? true ? 1 : 0) | (options.checkInjection ?? true ? 2 : 0)
}

/**
 * The white space that collapsing changes: a run of two or more, or one character that is not
 * a plain space (a lone space stays as it is, and prose is full of them: replacing each with
 * itself cost 4 µs per KB). White space is Rust's `char::is_whitespace` (Unicode
 * `White_Space`): tab to CR, space, NEL, no-break spaces and the Unicode spaces; not
 * JavaScript's `\s`, which also holds U+FEFF.
 */
const WHITE_SPACE_TO_COLLAPSE =
  /[\t-\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]{2,}|[\t-\r\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/g

/**
 * Folds `text` to the form that is hashed: NFKC, lower case, runs of white space collapsed to
 * one space, trimmed.
 *
 * Rust lower-cases char by char (`char::to_lowercase`), where `toLowerCase` on a whole string
 * also applies the final-sigma rule ("ΣΑΣ" → "σας"); capital sigma is made "σ" first, which is
 * all that rule changes, so the result is the char-by-char one.
 */
export function normalizeForKey(text: string): string {
  const folded = text.normalize('NFKC').replaceAll('Σ', 'σ').toLowerCase().replace(WHITE_SPACE_TO_COLLAPSE, ' ')
  const start = folded.startsWith(' ') ? 1 : 0
  const end = folded.length > start && folded.endsWith(' ') ? folded.length - 1 : folded.length
  return folded.slice(start, end)
}

/**
 * The cache key of `text` checked with `flags` (a byte; `keyFlags` builds it): 32 lower-case
 * hex characters.
 */
export function cacheKey(text: string, flags: number): string {
  const hash = createHash('sha256')
  hash.update(normalizeForKey(text), 'utf8')
  hash.update(Uint8Array.of(flags & 0xff))
  return hash.digest('hex').slice(0, 32)
}
