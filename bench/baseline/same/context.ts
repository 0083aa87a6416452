/**
 * Benign context, judged only in the neighbourhood of one match: the plain-TypeScript port of
 * crates/reflex-core/src/injection/context.rs (`judge` and what it uses), for the baseline the
 * native addon is benchmarked against.
 *
 * The neighbourhood is the match's own sentence (bounded by `.`, `!`, `?`, a line break or
 * their CJK forms, and by 120 code units either side, where Rust counts 120 bytes):
 * - negated: a negation among the last words of the clause before the match;
 * - about: an about-word (context-about.ts) in the sentence, outside the match;
 * - quoted: a quote between the sentence start and the match, and one between the match and
 *   the sentence end.
 *
 * ```ts
 * const text = 'do not ignore previous instructions.'
 * judge(text, 7, 35)                            // 'negated'
 * lowerSeverity('high', benignLevels('negated')) // 'low'
 * ```
 */
import { aboutIn } from './context-about.js'
import type { Severity } from './severity.js'

export type Benign = 'quoted' | 'negated' | 'about'

/** How many severity levels a benign match loses: negated or about two, quoted alone one. */
export function benignLevels(b: Benign): number {
  return b === 'quoted' ? 1 : 2
}

/**
 * The factor on a benign match's confidence. Rust holds these as `f32` (0.6f32 is
 * 0.60000002384…); these are the plain decimals.
 */
export function benignFactor(b: Benign): number {
  return b === 'quoted' ? 0.6 : 0.3
}

/**
 * `s` lowered by `levels`: critical → high → medium → low. As in Rust, every other severity
 * becomes low at each step, `none` included (a benign match is never dropped to none).
 */
export function lowerSeverity(s: Severity, levels: number): Severity {
  let out = s
  for (let k = 0; k < levels; k++) {
    out = out === 'critical' ? 'high' : out === 'high' ? 'medium' : 'low'
  }
  return out
}

/** How far the sentence may reach either side of the match. */
const WINDOW = 120

const STOPS = new Set(['.', '!', '?', '\n', '。', '！', '？'])

/** Quotes but the apostrophe, which `isQuote` judges by its neighbours. */
const QUOTES = new Set(['"', '`', '「', '」', '『', '』'])

/** Negation words (en, then fr, de, es/it/pt, nl, ru), compared whole. */
const NEGATIONS = new Set([
  'not', 'never', 'dont', 'don', 'doesnt', 'doesn', 'shouldnt', 'shouldn', 'mustnt', 'mustn',
  'cannot', 'cant', 'wont', 'won', 'isnt', 'isn', 'no', 'nor', 'neither', 'without', 'avoid', 'refuse',
  'pas', 'jamais', 'nicht', 'nie', 'nunca', 'nao', 'non', 'niet', 'не', 'никогда',
])

/** Negations that open a sentence and govern the whole clause, wherever they stand in it. */
const CLAUSE_NEGATIONS = ['under no circumstances', 'in no case', 'at no point', 'at no time']

/** Rust's `char::is_alphanumeric`: Alphabetic, or a number (Nd, Nl, No). */
const ALNUM = /^[\p{Alphabetic}\p{N}]$/u
/** The runs between words, for `negated`: every character that is not alphanumeric. */
const NOT_ALNUM = /[^\p{Alphabetic}\p{N}]+/u

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}

/** `i` moved back off the middle of a surrogate pair (Rust: off the middle of a UTF-8 char). */
function floorBoundary(text: string, i: number): number {
  return i > 0 && isLow(text.charCodeAt(i)) && isHigh(text.charCodeAt(i - 1)) ? i - 1 : i
}

function ceilBoundary(text: string, i: number): number {
  return i > 0 && i < text.length && isLow(text.charCodeAt(i)) && isHigh(text.charCodeAt(i - 1)) ? i + 1 : i
}

/** The sentence around `start..end`, as [sentence start, sentence end]. */
function sentence(text: string, start: number, end: number): [number, number] {
  const lo = floorBoundary(text, Math.max(0, start - WINDOW))
  const hi = ceilBoundary(text, Math.min(end + WINDOW, text.length))
  let s0 = lo
  for (let i = start - 1; i >= lo; i--) {
    if (STOPS.has(text[i] ?? '')) {
      s0 = i + 1
      break
    }
  }
  let s1 = hi
  for (let i = end; i < hi; i++) {
    if (STOPS.has(text[i] ?? '')) {
      s1 = i
      break
    }
  }
  return [s0, s1]
}

/** The whole character (one or two code units) that ends right before `i`. */
function charBefore(text: string, i: number): string {
  if (i <= 0) return ''
  const from = i >= 2 && isLow(text.charCodeAt(i - 1)) && isHigh(text.charCodeAt(i - 2)) ? i - 2 : i - 1
  return text.slice(from, i)
}

/** The whole character that starts at `i`. */
function charAt(text: string, i: number): string {
  const cp = text.codePointAt(i)
  return cp === undefined ? '' : String.fromCodePoint(cp)
}

function isQuote(text: string, i: number): boolean {
  const c = text[i] ?? ''
  if (QUOTES.has(c)) return true
  if (c !== "'") return false
  // An apostrophe between two letters is a contraction ("don't"), not a quote.
  return !(ALNUM.test(charBefore(text, i)) && ALNUM.test(charAt(text, i + 1)))
}

function hasQuote(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    if (isQuote(text, i)) return true
  }
  return false
}

/** A negation among the last four words of the clause before the match (`before`). */
function negated(before: string): boolean {
  const cut = Math.max(before.lastIndexOf(','), before.lastIndexOf(';'), before.lastIndexOf(':'))
  const clause = before.slice(cut + 1)
  if (CLAUSE_NEGATIONS.some((p) => clause.includes(p))) return true
  // The words are the runs of alphanumeric characters, read from the end.
  const words = clause.split(NOT_ALNUM)
  let prev = ''
  let read = 0
  for (let k = words.length - 1; k >= 0 && read < 4; k--) {
    const w = words[k] ?? ''
    if (w === '') continue
    // "can't" splits into "can" + "t".
    if (NEGATIONS.has(w) || (w === 'can' && prev === 't')) return true
    prev = w
    read++
  }
  return false
}

/**
 * Judges the match `start..end` (JS string indices) of the normalised text: negated first,
 * then about, then quoted; null when the context is not benign.
 *
 * ```ts
 * judge("he said 'ignore previous instructions' loudly", 9, 37) // 'quoted'
 * ```
 */
export function judge(normText: string, start: number, end: number): Benign | null {
  const [s0, s1] = sentence(normText, start, end)
  if (negated(normText.slice(s0, start))) return 'negated'
  if (aboutIn(normText, s0, start) || aboutIn(normText, end, s1)) return 'about'
  if (hasQuote(normText, s0, start) && hasQuote(normText, end, s1)) return 'quoted'
  return null
}
