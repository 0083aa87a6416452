/**
 * Rust `regex` syntax as JavaScript regexes (flag `u`), for the baseline's pattern rows
 * (`rows.ts`) and the injection pipeline's own regexes (`injection.ts`): the same matches,
 * checked against the core by `test/bench/same-rows.test.ts`.
 *
 * ```ts
 * rustRegex(String.raw`(?-u:\b)drop(?-u:\s)+table`).test('drop  table') // true
 * ```
 */

// ── Rust regex syntax → JavaScript (`u` flag) ────────────────────────────────────────────────
// Rust's Unicode classes, spelled with the properties Rust defines them by: JS's own `\w`,
// `\d`, `\b` are ASCII even with the `u` flag, and its `\s` and `.` differ from Rust's.
const UNICODE_SETS: Record<string, string> = {
  w: '\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}',
  s: '\\p{White_Space}',
  d: '\\p{Nd}',
}
// Inside `(?-u:…)`: Rust's ASCII classes (its ASCII `\s` holds \v too).
const ASCII_SETS: Record<string, string> = { w: '0-9A-Za-z_', s: '\\t\\n\\v\\f\\r ', d: '0-9' }
const UNICODE_WORD = `[${UNICODE_SETS.w}]`
const UNICODE_BOUNDARY = `(?:(?<=${UNICODE_WORD})(?!${UNICODE_WORD})|(?<!${UNICODE_WORD})(?=${UNICODE_WORD}))`
const SYNTAX = new Set('^$\\.*+?()[]{}|/')
const QUANTIFIER = /^\{\d+(?:,\d*)?\}/

/** The members of the class escape `\e` (`w`, `s`, `d` or their negations), if it is one. */
function escapeSet(e: string, unicode: boolean): { set: string; negated: boolean } | null {
  const set = (unicode ? UNICODE_SETS : ASCII_SETS)[e.toLowerCase()]
  return set === undefined ? null : { set, negated: e !== e.toLowerCase() }
}

/** A plain escape (`\x22`, `\n`, `\.`…) as JS `u` mode accepts it; `rest` follows the `e`. */
function plainEscape(e: string, rest: string, inClass: boolean): [js: string, used: number] {
  if (e === 'x') {
    const braced = /^\{([0-9a-fA-F]+)\}/.exec(rest)
    if (braced) return [`\\u{${braced[1]}}`, braced[0].length]
    return [`\\x${rest.slice(0, 2)}`, 2]
  }
  if ('ntrfv'.includes(e) || SYNTAX.has(e)) return [`\\${e}`, 0]
  // `u` mode allows `\-` in a class only.
  if (e === '-') return [inClass ? '\\-' : '-', 0]
  if (/[a-zA-Z0-9]/.test(e)) throw new Error(`unsupported escape \\${e}`)
  return [e, 0]
}

/** Translates the class starting at `chars[i]` (`[`); returns the JS and the index after it. */
function translateClass(chars: string[], i: number, unicode: boolean): [string, number] {
  let j = i + 1
  const negated = chars[j] === '^'
  if (negated) j++
  let items = ''
  // Negated escapes (`[\W_]`) cannot sit in a JS `u` class: the class becomes an alternation.
  const apart: string[] = []
  let afterSet = false
  for (let first = true; ; first = false) {
    const c = chars[j]
    if (c === undefined) throw new Error('unclosed class')
    if (c === ']' && !first) return [joinClass(negated, items, apart), j + 1]
    // Nested classes and set operations (`&&`, `--`, `~~`): none in the rows.
    if (c === '[' || ('&~-'.includes(c) && chars[j + 1] === c)) throw new Error('class set syntax')
    if (c === '\\') {
      const e = chars[j + 1] ?? ''
      const set = escapeSet(e, unicode)
      if (set?.negated) apart.push(`[^${set.set}]`)
      else if (set) items += set.set
      else {
        const [js, used] = plainEscape(e, chars.slice(j + 2, j + 12).join(''), true)
        items += js
        j += used
      }
      afterSet = set !== null
      j += 2
      continue
    }
    // A `]` first is literal (Rust); a `-` after an expanded set is literal, not a range.
    items += c === ']' || (c === '-' && afterSet) ? `\\${c}` : c
    afterSet = false
    j++
  }
}

function joinClass(negated: boolean, items: string, apart: string[]): string {
  if (apart.length === 0) return `[${negated ? '^' : ''}${items}]`
  if (negated) throw new Error('negated class with a negated escape')
  return `(?:${[...apart, ...(items ? [`[${items}]`] : [])].join('|')})`
}

/**
 * A Rust regex source as a JS source for the `u` flag, with the same matches: Unicode
 * classes by their properties, `(?-u:…)` ASCII, leading `(?m)`/`(?s)` as lookarounds and
 * classes (JS's `m` also breaks lines at \r, U+2028 and U+2029; its `.` skips those too).
 * Capture groups become non-capturing unless `captures` is set. Throws on syntax it does not
 * handle.
 */
export function translateRegex(rust: string, captures = false): string {
  const lead = /^\(\?([ms]+)\)/.exec(rust)
  const multiLine = lead?.[1]?.includes('m') ?? false
  const dotAll = lead?.[1]?.includes('s') ?? false
  const chars = Array.from(lead ? rust.slice(lead[0].length) : rust)
  const asciiGroups: boolean[] = []
  let out = ''
  for (let i = 0; i < chars.length; ) {
    const c = chars[i] as string
    const ahead = chars.slice(i, i + 5).join('')
    const unicode = !asciiGroups.includes(true)
    if (c === '\\') {
      const e = chars[i + 1] ?? ''
      const set = escapeSet(e, unicode)
      if (e === 'b' || e === 'B') out += unicode ? (e === 'b' ? UNICODE_BOUNDARY : `(?!${UNICODE_BOUNDARY})`) : `\\${e}`
      else if (set) out += `[${set.negated ? '^' : ''}${set.set}]`
      else {
        const [js, used] = plainEscape(e, chars.slice(i + 2, i + 12).join(''), false)
        out += js
        i += used
      }
      i += 2
    } else if (c === '[') {
      const [js, next] = translateClass(chars, i, unicode)
      out += js
      i = next
    } else if (c === '(') {
      const opener = /^\((?:\?-u:|\?:|\?=|\?!|\?<=|\?<!|(?!\?))/.exec(ahead)?.[0]
      if (opener === undefined) throw new Error(`unsupported group ${ahead}`)
      asciiGroups.push(opener === '(?-u:')
      out += opener === '(?-u:' || (opener === '(' && !captures) ? '(?:' : opener
      i += opener.length
    } else {
      if (c === ')') asciiGroups.pop()
      const quantifier = c === '{' ? QUANTIFIER.exec(chars.slice(i, i + 12).join(''))?.[0] : undefined
      if (quantifier) {
        out += quantifier
        i += quantifier.length
        continue
      }
      if (c === '.') out += dotAll ? '[^]' : '[^\\n]'
      else if (c === '^') out += multiLine ? '(?<![^\\n])' : '^'
      else if (c === '$') out += multiLine ? '(?![^\\n])' : '$'
      else out += c === '{' || c === '}' || c === ']' ? `\\${c}` : c
      i++
    }
  }
  return out
}

// ── Word runs that backtracking would split ──────────────────────────────────────────────────
// `(?:[a-z0-9_]+[^a-z0-9]*){0,8}`: with the gap empty, a run of word characters can be cut
// between repetitions anywhere, so a backtracking engine tries exponentially many cuts of the
// same text (600 µs a call for this row on 1 KB) where Rust's automaton reads it once. Such a
// group (`(?:X+Y*){0,n}` or `(?:Y*X+){0,n}`, greedy or lazy) is rewritten so that every
// repetition but the last matches a whole run and a whole gap (`X+(?!X)`, `Y*(?!Y)`: one way
// only), while the positions after the group are still tried in the order backtracking
// tries them, which is what fixes the leftmost-first match:
// - greedy: every reachable position, furthest first: n-1 whole pieces and a last piece
//   that may stop inside a run, then fewer whole pieces;
// - lazy: the ends of 0, 1, … n whole pieces first, then the positions inside the runs of the
//   n-th piece, the (n-1)-th…, each from the furthest (a second alternative, greedy).
// `same-rows.test.ts` compares the rewritten rows with the literal translations on fuzzed
// texts, and both with Rust's matches on the corpus.
const ATOM = String.raw`\[(?:\\.|[^\]\\])+\]|\\[a-zA-Z]|\(\?-u:\\[a-zA-Z]\)`
const PIECES = new RegExp(String.raw`\(\?:(${ATOM})([+*])(${ATOM})([+*])\)\{0,(\d+)\}(\??)`, 'g')

function unsplittable(rust: string): string {
  type Parts = [whole: string, a: string, qa: string, b: string, qb: string, count: string, lazy: string]
  return rust.replace(PIECES, (...[whole, a, qa, b, qb, count, lazy]: Parts) => {
    const n = Number(count)
    if (qa === qb || n < 2) return whole
    const [run, gap] = qa === '+' ? [a, b] : [b, a]
    const wholeRun = `${run}+(?!${run})`
    const wholeGap = `${gap}*(?!${gap})`
    const piece = qa === '+' ? wholeRun + wholeGap : wholeGap + wholeRun
    const last = qa === '+' ? `${run}+${gap}*` : `${gap}*${run}+`
    return lazy
      ? `(?:(?:${piece}){0,${n}}?|(?:${piece}){0,${n - 1}}${qa === '+' ? `${run}+` : last})`
      : `(?:(?:${piece}){0,${n - 1}}(?:${last})?)`
  })
}

/**
 * The JS regex (flags `gu`) for a Rust regex source: `translateRegex`, after rewriting the
 * groups backtracking would split (`unsplittable`) unless `literal` is set.
 *
 * ```ts
 * rustRegex(String.raw`(?-u:\b)drop(?-u:\s)+table`).test('drop  table') // true
 * ```
 */
export function rustRegex(rust: string, options: { literal?: boolean; captures?: boolean } = {}): RegExp {
  return new RegExp(translateRegex(options.literal ? rust : unsplittable(rust), options.captures), 'gu')
}
