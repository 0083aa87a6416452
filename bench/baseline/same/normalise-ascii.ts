/**
 * The ASCII part of the injection normaliser's fold (port of `fold_in_place` in
 * `crates/reflex-core/src/injection/normalize/ascii.rs`): on lower-cased text, leetspeak
 * folded in the words that hold a leet sign, and tabs and carriage returns made spaces. Every
 * step is one code unit for one code unit, so the spans of the text do not move.
 *
 * Ordinary prose has no leet sign in most words: a RegExp finds the few that have one, and
 * only those words are read character by character.
 */

import { leetCode } from './normalise-classes.js'

// Words longer than this are ids, hashes or encodings, not words written in leetspeak.
const MAX_LEET_WORD = 24

// Leet candidates: digits, '@' and '$' (shared state: `lastIndex` is reset before each scan).
const LEET_CANDIDATE = /[0-9@$]/g
const TAB_OR_CR = /[\t\r]/g

/** A word character of lower-cased ASCII: a-z, 0-9, '@', '$' (anything else ends a word). */
function isLowerWord(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || code === 0x40 || code === 0x24
}

/**
 * Folds `lower` (text whose ASCII letters are lower-cased; other characters are never word
 * characters here) as the ASCII rules say: each word of at most 24 characters that holds a
 * leet sign, at least one letter, and no 2 or 6, has its signs read as letters; tabs and
 * carriage returns become spaces.
 *
 * @example foldAscii('1gn0r3 h264\tok') // 'ignore h264 ok'
 */
export function foldAscii(lower: string): string {
  const parts: string[] = []
  let done = 0
  LEET_CANDIDATE.lastIndex = 0
  for (let m = LEET_CANDIDATE.exec(lower); m !== null; m = LEET_CANDIDATE.exec(lower)) {
    let start = m.index
    while (start > 0 && isLowerWord(lower.charCodeAt(start - 1))) start -= 1
    let end = m.index + 1
    while (end < lower.length && isLowerWord(lower.charCodeAt(end))) end += 1
    // The next candidate is past this word, whether it folds or not.
    LEET_CANDIDATE.lastIndex = end
    const folded = foldLeetWord(lower, start, end)
    if (folded === undefined) continue
    parts.push(lower.slice(done, start), folded)
    done = end
  }
  const out = parts.length === 0 ? lower : parts.join('') + lower.slice(done)
  return out.replace(TAB_OR_CR, ' ')
}

/** The word `lower[start..end)` with its leet signs folded, or undefined when it is no leet word. */
function foldLeetWord(lower: string, start: number, end: number): string | undefined {
  if (end - start > MAX_LEET_WORD) return undefined
  let letter = false
  for (let i = start; i < end; i++) {
    const code = lower.charCodeAt(i)
    // A 2 or a 6 is a digit leet does not read: the word is a number or a name ("h264").
    if (code === 0x32 || code === 0x36) return undefined
    if (code >= 0x61) letter = true
  }
  if (!letter) return undefined
  const codes: number[] = []
  let prev = -1
  for (let i = start; i < end; i++) {
    const code = lower.charCodeAt(i)
    const folded = leetCode(code, prev)
    prev = folded >= 0 ? folded : code
    codes.push(prev)
  }
  return String.fromCharCode(...codes)
}
