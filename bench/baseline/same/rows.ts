/**
 * The injection pattern rows of the reflex core, run as plain JavaScript regexes: the
 * baseline's port of `crates/reflex-core/src/injection/patterns.rs` (see `check.ts`).
 *
 * The rows come from `rows.json` (`examples/rules_dump.rs`): each row's family, severity,
 * confidence, trigger words, `needs` and `unless` words and the Rust regex source the core
 * compiles. A row runs on a normalised text when one of its triggers occurs in it (and one of
 * its `needs`, if it has any); its matches are the leftmost-first, non-overlapping matches of
 * its regex (Rust `find_iter`), less those an `unless` word follows (`Rule::keeps`). Offsets
 * are JS string indices.
 *
 * Known differences: the Unicode classes follow V8's Unicode tables, not the regex crate's
 * (they can differ on the newest characters); and a long run of `_`, which both a gap
 * `[^a-z0-9]` and a word run `[a-z0-9_]` take, lets backtracking split it many ways: a few ms a
 * row for 300 underscores, seconds for 2,000, where Rust stays linear. Same matches, though.
 *
 * ```ts
 * rowMatches('ignore all previous instructions')[0] // { row: 0, start: 0, end: 32 }
 * ```
 */
import { readFileSync } from 'node:fs'

import { rustRegex } from './rust-regex.js'
import type { Severity } from './severity.js'

interface RowJson {
  family: string
  severity: Severity
  confidence: number
  triggers: string[]
  needs: string[]
  unless: string[]
  source: string
}

interface RowsFile {
  rows: RowJson[]
  rot13: string[]
  join: string[]
  assign: string[]
}

/** One pattern row, its regex compiled once (flags `gu`). */
export interface Row {
  index: number
  family: string
  severity: Severity
  confidence: number
  triggers: readonly string[]
  needs: readonly string[]
  unless: readonly string[]
  /** The Rust regex source the core compiles. */
  source: string
  regex: RegExp
}

/** A kept match of row `row`: `[start, end)` in the searched text. */
export interface RowMatch {
  row: number
  start: number
  end: number
}

const DATA = JSON.parse(readFileSync(new URL('./rows.json', import.meta.url), 'utf8')) as RowsFile

/** Every row, in table order. */
export const ROWS: readonly Row[] = DATA.rows.map((r, index) => ({
  index,
  family: r.family,
  severity: r.severity,
  confidence: r.confidence,
  triggers: r.triggers,
  needs: r.needs,
  unless: r.unless,
  source: r.source,
  regex: rustRegex(r.source),
}))

// ── Running the rows ─────────────────────────────────────────────────────────────────────────

/**
 * The `[start, end)` of every match of `re` (a `g` regex) in `text`, as Rust's `find_iter`
 * gives them: leftmost-first, each search from the end of the last match, and an empty match
 * right at the end of the previous one skipped.
 */
export function findAll(re: RegExp, text: string): Array<[number, number]> {
  const out: Array<[number, number]> = []
  let last = -1
  for (let at = 0; at <= text.length; ) {
    re.lastIndex = at
    const m = re.exec(text)
    if (!m) break
    const start = m.index
    const end = start + m[0].length
    if (start === end && end === last) {
      // One code point on, as Rust steps one character.
      at = end + ((text.codePointAt(end) ?? 0) > 0xffff ? 2 : 1)
      continue
    }
    out.push([start, end])
    last = end
    at = end
  }
  return out
}

/**
 * Every trigger and `needs` word by a key of its first three UTF-16 units (two-unit words by
 * their two, one-unit words by a flag per unit), so one pass over a text finds which occur: an
 * `includes` per word read the text ~900 times (110-160 µs a KB), and keys of two units left
 * ~2,600 candidates a KB of English to confirm against ~470 for three. A key keeps the units'
 * low bits only (a small integer, cheap as a `Map` key); `startsWith` confirms every candidate.
 */
const BY_THREE = new Map<number, string[]>()
const BY_TWO = new Map<number, string[]>()
const ONE_UNIT = new Uint8Array(0x10000)
const key2 = (a: number, b: number): number => ((a & 0x3ff) << 10) | (b & 0x3ff)
const key3 = (a: number, b: number, c: number): number => ((a & 0x1ff) << 20) | key2(b, c)
for (const word of new Set(DATA.rows.flatMap((r) => [...r.triggers, ...r.needs]))) {
  const [a, b, c] = [word.charCodeAt(0), word.charCodeAt(1), word.charCodeAt(2)]
  if (word.length === 1) ONE_UNIT[a] = 1
  else {
    const [map, key] = word.length === 2 ? [BY_TWO, key2(a, b)] : [BY_THREE, key3(a, b, c)]
    map.set(key, [...(map.get(key) ?? []), word])
  }
}

/** The trigger and `needs` words that occur in `text`. */
export function wordsIn(text: string): Set<string> {
  const found = new Set<string>()
  const confirm = (words: string[] | undefined, at: number): void => {
    if (words !== undefined) for (const w of words) if (text.startsWith(w, at)) found.add(w)
  }
  for (let i = 0; i < text.length; i++) {
    const a = text.charCodeAt(i)
    const b = text.charCodeAt(i + 1)
    if (ONE_UNIT[a] === 1) found.add(text[i] as string)
    confirm(BY_TWO.get(key2(a, b)), i)
    confirm(BY_THREE.get(key3(a, b, text.charCodeAt(i + 2))), i)
  }
  return found
}

/**
 * Whether `row` runs on a text holding the words `present` (`wordsIn`): one of its triggers
 * occurs, and one of its `needs` if any.
 */
export function rowArmed(row: Row, present: ReadonlySet<string>): boolean {
  const has = (word: string): boolean => present.has(word)
  return row.triggers.some(has) && (row.needs.length === 0 || row.needs.some(has))
}

/** `Rule::keeps`: false when, past any run of ' ', ',' and '-', one of the row's `unless` words follows. */
export function keeps(row: Row, text: string, end: number): boolean {
  if (row.unless.length === 0) return true
  let i = end
  while (text[i] === ' ' || text[i] === ',' || text[i] === '-') i++
  return !row.unless.some((u) => text.startsWith(u, i))
}

/**
 * Every kept match of every row that runs on `norm` (a normalised text), rows in table order
 * and each row's matches in text order.
 *
 * ```ts
 * rowMatches('disregard the prior rules.').map((m) => m.row) // [0]
 * ```
 */
export function rowMatches(norm: string): RowMatch[] {
  const out: RowMatch[] = []
  const present = wordsIn(norm)
  for (const row of ROWS) {
    if (!rowArmed(row, present)) continue
    for (const [start, end] of findAll(row.regex, norm)) {
      if (keeps(row, norm, end)) out.push({ row: row.index, start, end })
    }
  }
  return out
}

// ── The special scans a text arms (`Automaton::arm`) ─────────────────────────────────────────

const LETTER = /[a-z]/gi

/**
 * Rotates ASCII letters by 13; everything else, and so every offset, stays.
 *
 * ```ts
 * rot13('Vtaber') // 'Ignore'
 * ```
 */
export function rot13(s: string): string {
  return s.replace(LETTER, (c) => {
    const base = c <= 'Z' ? 65 : 97
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base)
  })
}

const ROT13_WORDS = DATA.rot13.map(rot13)
const ALNUM = /[a-z0-9]/i

/** Whether `word` occurs in `text` where no ASCII letter or digit comes right before it. */
function atWordStart(text: string, word: string): boolean {
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    if (at === 0 || !ALNUM.test(text[at - 1] as string)) return true
  }
  return false
}

/**
 * The extra scans `norm` arms: `rot13` when a rotated trigger word starts a word (a ROT13
 * rescan), `join` when it asks for pieces to be combined, `assign` when it assigns a string
 * literal.
 *
 * ```ts
 * armedScans("vtaber it; a = 'x'") // { rot13: true, join: false, assign: true }
 * ```
 */
export function armedScans(norm: string): { rot13: boolean; join: boolean; assign: boolean } {
  return {
    rot13: ROT13_WORDS.some((w) => atWordStart(norm, w)),
    join: DATA.join.some((w) => norm.includes(w)),
    assign: DATA.assign.some((w) => norm.includes(w)),
  }
}
