/**
 * Routing hints, the plain-TypeScript port of crates/reflex-core/src/routing/ (`route` and its
 * scan): where a checked request goes next and which arms it probably needs. The Rust scan
 * reads 64-byte blocks through bit masks; this is the byte loop its tests hold it to
 * (`reference_scan`), a character at a time, with the two-word phrases read as `Signals::note`
 * reads them.
 *
 * ```ts
 * route('Search the docs for the rate limit, then write a script to test it.', false, false, false)
 * // { route: 'orchestrator', complexity: 'moderate', suggestedArms: ['planner', 'retriever', 'coder', 'judge'] }
 * ```
 */
import { classify, type Word } from './routing-keywords.js'

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

/** Word characters: ASCII letters and digits, `_`, `'` and anything non-ASCII ("naïve" is one word). */
function isWordChar(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) ||
    code === 0x5f || code === 0x27 || code >= 0x80
  )
}

/** ASCII white space as Rust's `u8::is_ascii_whitespace`: tab, line feed, form feed, CR, space. */
function isAsciiSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39
}

/** The length of a list marker at `i`, a line's first non-indent character ("- ", "1. ", "12) "), or 0. */
function listMarker(text: string, i: number): number {
  const c = text.charCodeAt(i)
  if ((c === 0x2d || c === 0x2a || c === 0x2b) && text.charCodeAt(i + 1) === 0x20) return 2
  let digits = 0
  while (isDigit(text.charCodeAt(i + digits))) digits++
  const after = text.charCodeAt(i + digits)
  if (digits >= 1 && digits <= 3 && (after === 0x2e || after === 0x29) && text.charCodeAt(i + digits + 1) === 0x20) {
    return digits + 2
  }
  return 0
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
 * One pass over `text`: words against the keyword table, and the shape signals (sentences,
 * clauses, list items, code fences) counted on the way.
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
  let lineStart = true
  let openSentence = false
  let phrase: Phrase = 'none'
  let i = 0
  while (i < text.length) {
    const c = text.charCodeAt(i)
    if (lineStart) {
      if (c === 0x20 || c === 0x09) {
        i++
        continue
      }
      lineStart = false
      const marker = listMarker(text, i)
      if (marker > 0) {
        // A new item ends the previous one even without a full stop.
        if (openSentence) s.sentences++
        openSentence = false
        s.listItems++
        i += marker
        continue
      }
      if (text.startsWith('```', i) || text.startsWith('~~~', i)) {
        s.codeFences++
        i += 3
        continue
      }
    }
    if (c === 0x20) {
      i++
    } else if (isWordChar(c)) {
      let end = i + 1
      while (end < text.length && isWordChar(text.charCodeAt(end))) end++
      phrase = note(s, classify(text.slice(i, end)), phrase)
      openSentence = true
      i = end
    } else {
      if (c === 0x0a) {
        lineStart = true
      } else if (c === 0x2e || c === 0x21 || c === 0x3f) {
        // A full stop ends a sentence when white space (or the text's end) follows it.
        if (openSentence && (i + 1 >= text.length || isAsciiSpace(text.charCodeAt(i + 1)))) {
          s.sentences++
          openSentence = false
        }
      } else if (c === 0x2c || c === 0x3b || c === 0x3a) {
        s.clauses++
      }
      i++
    }
  }
  if (openSentence) s.sentences++
  return s
}
