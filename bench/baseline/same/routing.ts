/**
 * Routing hints, the plain-TypeScript port of crates/reflex-core/src/routing/ (`route` and its
 * scan): where a checked request goes next and which arms it probably needs. The Rust scan
 * reads 64-byte blocks through bit masks; this counts what its tests hold it to
 * (`reference_scan`, one byte at a time) with a few compiled regular expressions: one
 * alternation of the keywords, one for the shape marks, with the two-word phrases read as
 * `Signals::note` reads them.
 *
 * ```ts
 * route('Search the docs for the rate limit, then write a script to test it.', false, false, false)
 * // { route: 'orchestrator', complexity: 'moderate', suggestedArms: ['planner', 'retriever', 'coder', 'judge'] }
 * ```
 */
import { KEYWORDS, type Word } from './routing-keywords.js'

export type Route = 'cache' | 'orchestrator' | 'blocked'
export type Complexity = 'simple' | 'moderate' | 'complex'
export type Arm = 'planner' | 'retriever' | 'executor' | 'coder' | 'judge' | 'guardian'

/** The addon's `RoutingHint`, field for field. */
export interface Routing {
  route: Route
  complexity: Complexity
  suggestedArms: Arm[]
}

/** What one pass over the text counted. */
export interface Signals {
  /** The text's length in UTF-8 bytes, as Rust measures it. */
  bytes: number
  sentences: number
  clauses: number
  sequencing: number
  listItems: number
  codeFences: number
  retriever: boolean
  executor: boolean
  coder: boolean
  judge: boolean
  guardian: boolean
}

/**
 * What the words read so far leave open for the next: the first half of a two-word phrase
 * ("look" up, "fix" bug, "fix the" bug, "personal" data, "after" that), or a sequence word
 * (so that "then after that" counts one step, not two).
 */
type Phrase = 'none' | 'sequence' | 'look' | 'fix' | 'fixArticle' | 'personal' | 'after' | 'sequenceAfter'

/**
 * Suggests a route, a complexity and arms for `text`. Arms come in a fixed order: planner (for
 * moderate and complex requests), then retriever, executor, coder, judge, guardian as their
 * keywords appear; guardian also when `piiFound`. They are computed whatever the route.
 */
export function route(text: string, cacheHit: boolean, blocked: boolean, piiFound: boolean): Routing {
  const s = scan(text)
  const complexity = complexityOf(s)
  const suggestedArms: Arm[] = []
  if (complexity !== 'simple') suggestedArms.push('planner')
  if (s.retriever) suggestedArms.push('retriever')
  if (s.executor) suggestedArms.push('executor')
  if (s.coder) suggestedArms.push('coder')
  if (s.judge) suggestedArms.push('judge')
  if (s.guardian || piiFound) suggestedArms.push('guardian')
  return { route: blocked ? 'blocked' : cacheHit ? 'cache' : 'orchestrator', complexity, suggestedArms }
}

/** 0 below `one`, 1 from `one`, 2 from `two`. */
function tier(value: number, one: number, two: number): number {
  return (value >= one ? 1 : 0) + (value >= two ? 1 : 0)
}

function complexityOf(s: Signals): Complexity {
  const arms = [s.retriever, s.executor, s.coder, s.judge, s.guardian].filter(Boolean).length
  const score =
    tier(s.bytes, 300, 1_000) +
    tier(s.sentences, 3, 6) +
    tier(s.clauses, 3, Infinity) +
    tier(s.sequencing, 1, 2) +
    tier(s.listItems, 2, 4) +
    tier(s.codeFences, 1, Infinity) +
    tier(arms, 2, 3)
  return score <= 1 ? 'simple' : score <= 3 ? 'moderate' : 'complex'
}

/**
 * Word characters: ASCII letters and digits, `_`, `'` and anything non-ASCII ("naïve" is one
 * word), as a character-class body for the patterns below.
 */
const WORD = "0-9A-Za-z_'\\u0080-\\uffff"

/**
 * Every keyword as a whole ASCII word, case-insensitively. `\b` knows only `[0-9A-Za-z_]` as
 * word characters, so a hit can still touch a `'` or a non-ASCII character: `isWordChar` on
 * either side of it rules those out. Without the `u` flag, `i` folds no non-ASCII letter to an
 * ASCII one (the Kelvin sign is no "k"), as Rust's byte-wise fold.
 */
const KEYWORD = new RegExp(`\\b(?:${[...KEYWORDS.keys()].join('|')})\\b`, 'gi')

/**
 * What the scan passes over between two words: characters that are no word characters, and
 * numbered list markers at a line's start (their digits make no word).
 */
const SEPARATOR = new RegExp(`(?:[^${WORD}]|(?<=(?:^|\\n)[ \\t]*)\\d{1,3}[.)] )*`, 'y')

const WORD_CHAR = new RegExp(`[${WORD}]`, 'g')

/**
 * The shape marks, left to right: a list marker (group 1) or a code fence (group 2) as a line's
 * first non-indent characters, or a full stop that white space or the text's end follows. A
 * marker's own dot ("1. ") is consumed with it, so it is never read as a full stop.
 */
const SHAPE = /(?:^|\n)[ \t]*(?:([-*+] |\d{1,3}[.)] )|(```|~~~))|[.!?](?=[\t\n\f\r ]|$)/g

function isWordChar(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) ||
    code === 0x5f || code === 0x27 || code >= 0x80
  )
}

/** The index of the first word character at or after `from`, or `Infinity`. */
function nextWordChar(text: string, from: number): number {
  WORD_CHAR.lastIndex = from
  return WORD_CHAR.exec(text)?.index ?? Infinity
}

/** Counts `word`, read while `phrase` was open; returns what it leaves open. */
function note(s: Signals, word: Word, phrase: Phrase): Phrase {
  switch (word) {
    case 'retriever': case 'executor': case 'coder': case 'judge': case 'guardian':
      s[word] = true
      return 'none'
    case 'sequence':
      s.sequencing++
      return 'sequence'
    case 'look': return 'look'
    case 'fix': return 'fix'
    case 'personal': return 'personal'
    case 'after': return phrase === 'sequence' ? 'sequenceAfter' : 'after'
    case 'article': return phrase === 'fix' ? 'fixArticle' : 'none'
    case 'up':
      if (phrase === 'look') s.retriever = true
      return 'none'
    case 'bug':
      if (phrase === 'fix' || phrase === 'fixArticle') s.coder = true
      return 'none'
    case 'data':
      if (phrase === 'personal') s.guardian = true
      return 'none'
    case 'that':
      // "and then after that" is one step, not two.
      if (phrase === 'after') s.sequencing++
      return 'none'
    case 'other':
      return 'none'
  }
}

/**
 * The signals of `text`: its words against the keyword table, and its shape (sentences,
 * clauses, list items, code fences).
 *
 * ```ts
 * scan('Pi is 3.14 roughly. e.g. this').sentences // 3
 * ```
 */
export function scan(text: string): Signals {
  const s: Signals = {
    bytes: Buffer.byteLength(text, 'utf8'),
    sentences: 0, clauses: 0, sequencing: 0, listItems: 0, codeFences: 0,
    retriever: false, executor: false, coder: false, judge: false, guardian: false,
  }
  // No marker or fence holds a clause mark, so every one in the text counts.
  for (const mark of ',;:') {
    for (let k = text.indexOf(mark); k >= 0; k = text.indexOf(mark, k + 1)) s.clauses++
  }
  countShape(s, text)
  countKeywords(s, text)
  return s
}

/**
 * Sentences, list items and code fences. A sentence is open from a word to a full stop, a list
 * marker (a new item ends the previous one even without a full stop) or the text's end; each
 * of those ends one only when a word came since the last.
 */
function countShape(s: Signals, text: string): void {
  // The first word character not yet in a counted sentence.
  let word = nextWordChar(text, 0)
  SHAPE.lastIndex = 0
  for (let m = SHAPE.exec(text); m !== null; m = SHAPE.exec(text)) {
    if (m[2] !== undefined) {
      s.codeFences++
      continue
    }
    if (m[1] !== undefined) s.listItems++
    // (A marker's match starts at the line break before it, which is no word character.)
    if (word < m.index) s.sentences++
    const end = m.index + m[0].length
    if (word < end) word = nextWordChar(text, end)
  }
  if (word < text.length) s.sentences++
}

/**
 * The keywords in order, each read with the phrase the word before it left open. Words that
 * are no keyword close any phrase, so one between two keywords (seen in the separator between
 * them) closes it too.
 */
function countKeywords(s: Signals, text: string): void {
  let phrase: Phrase = 'none'
  let previousEnd = 0
  KEYWORD.lastIndex = 0
  for (let m = KEYWORD.exec(text); m !== null; m = KEYWORD.exec(text)) {
    const end = m.index + m[0].length
    if (isWordChar(text.charCodeAt(m.index - 1)) || isWordChar(text.charCodeAt(end))) continue
    if (phrase !== 'none') {
      SEPARATOR.lastIndex = previousEnd
      SEPARATOR.test(text)
      if (SEPARATOR.lastIndex !== m.index) phrase = 'none'
    }
    phrase = note(s, KEYWORDS.get(m[0].toLowerCase()) ?? 'other', phrase)
    previousEnd = end
  }
}
