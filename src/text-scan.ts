/**
 * Scans of client text written as plain code where a regular expression would need look-around:
 * each reads the text once, left to right, so its time is linear in the text, and it states its
 * rule in code the ReDoS check (test/hostile/every-regex-in-src-is-safe.test.ts) need not analyse.
 *
 * ```ts
 * trimEndOf('https://a.example///', '/')             // 'https://a.example'
 * sentenceBreaks('Hi. "Yes!"  Go', '.!?')            // [{ index: 3, length: 1 }, { index: 10, length: 2 }]
 * quotedSpans(`say "hi" and 'bye'`)                  // [{ index: 4, length: 4, body: 'hi' }, { index: 13, length: 5, body: 'bye' }]
 * ```
 */

export interface Span {
  index: number
  length: number
}

/** JavaScript's `\s`: white space and line terminators. */
export function isSpace(ch: string | undefined): boolean {
  return ch !== undefined && ch !== '' && ch.trim() === ''
}

/** JavaScript's `\w` (ASCII letters, digits and `_`). */
export function isWordChar(ch: string | undefined): boolean {
  if (ch === undefined || ch.length !== 1) return false
  const c = ch.charCodeAt(0)
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95
}

/** `text` without the run of characters from `chars` it ends with. */
export function trimEndOf(text: string, chars: string): string {
  let end = text.length
  while (end > 0 && chars.includes(text[end - 1]!)) end--
  return text.slice(0, end)
}

/** Each maximal run of white space in `text`. */
export function spaceRuns(text: string): Span[] {
  const runs: Span[] = []
  let i = 0
  while (i < text.length) {
    if (!isSpace(text[i])) {
      i++
      continue
    }
    const start = i
    while (i < text.length && isSpace(text[i])) i++
    runs.push({ index: start, length: i - start })
  }
  return runs
}

const CLOSERS = `"')]`

/**
 * The runs of white space that end a sentence: those after one of `ends` followed by at most three
 * closing quotes or brackets (`"`, `'`, `)`, `]`). A dot inside `a@b.com` or `3.5` has no white
 * space after it and ends nothing.
 */
export function sentenceBreaks(text: string, ends: string): Span[] {
  return spaceRuns(text).filter(({ index }) => {
    let at = index - 1
    for (let closers = 0; closers <= 3 && at >= 0; closers++, at--) {
      if (ends.includes(text[at]!)) return true
      if (!CLOSERS.includes(text[at]!)) return false
    }
    return false
  })
}

/** A quoted span: where it starts, its length with the quotes, and the text between them. */
export interface Quoted extends Span {
  body: string
}

/**
 * The quoted spans of `text`, left to right: "…", “…”, `…`, ‘…’, and '…' when neither quote touches
 * a word character on its outer side (so the apostrophe in "don't" opens nothing). An opening quote
 * with no closing one is read as text. A curly opening quote is closed by the next curly quote of
 * its pair, and only if that is the closing one. With `colonTail`, a colon outside quotes starts a
 * last span that runs to the end of the text (its body is everything after the colon).
 */
export function quotedSpans(text: string, colonTail = false): Quoted[] {
  const spans: Quoted[] = []
  const none = new Set<string>() // quote characters with no later occurrence
  const next = (ch: string, from: number) => {
    if (none.has(ch)) return -1
    const at = text.indexOf(ch, from)
    if (at === -1) none.add(ch)
    return at
  }
  let i = 0
  while (i < text.length) {
    const ch = text[i]!
    let close = -1
    if (ch === '"' || ch === '`') close = next(ch, i + 1)
    else if (ch === '“' || ch === '‘') close = curlyClose(text, i, ch === '“' ? '”' : '’')
    else if (ch === "'" && !isWordChar(text[i - 1])) {
      const at = next("'", i + 1)
      close = at !== -1 && !isWordChar(text[at + 1]) ? at : -1
    } else if (ch === ':' && colonTail) {
      spans.push({ index: i, length: text.length - i, body: text.slice(i + 1) })
      break
    }
    if (close === -1) {
      i++
      continue
    }
    spans.push({ index: i, length: close + 1 - i, body: text.slice(i + 1, close) })
    i = close + 1
  }
  return spans
}

/** The index of the quote that closes the curly quote at `open`, or -1 when the next curly quote of the pair opens again. */
function curlyClose(text: string, open: number, closer: string): number {
  const opener = text[open]!
  for (let at = open + 1; at < text.length; at++) {
    if (text[at] === closer) return at
    if (text[at] === opener) return -1
  }
  return -1
}
