/**
 * English number words as digits, so the templates read "the twentieth Fibonacci number" as they
 * read "the 20th": cardinals and ordinals up to the millions, joined by spaces, hyphens or "and".
 *
 * ```ts
 * withDigits('the twentieth Fibonacci number')        // 'the 20th Fibonacci number'
 * withDigits('primes below one hundred and five')     // 'primes below 105'
 * withDigits('reverse "twenty one"')                  // unchanged inside quotes
 * ```
 *
 * Left as written: text in quotes and after a colon (what string templates operate on), a lone
 * "one" unless it bounds a range ("from one to ten"; "which one is prime" is not about 1), a lone
 * "first" to "ninth" unless after "the" and before no number ("the first 10 primes", "a second"),
 * and runs that are not one number ("one two").
 */
import { isSpace, quotedSpans, spaceRuns } from '../../text-scan.js'

const UNITS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine']
const TEENS = ['ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen']
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety']
const SCALES: Record<string, number> = { hundred: 100, thousand: 1_000, million: 1_000_000 }
const ORDINAL_UNITS = ['zeroth', 'first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth']
const ORDINAL_TEENS = [
  'tenth',
  'eleventh',
  'twelfth',
  'thirteenth',
  'fourteenth',
  'fifteenth',
  'sixteenth',
  'seventeenth',
  'eighteenth',
  'nineteenth',
]

type Kind = 'unit' | 'teen' | 'tens' | 'scale'
const WORDS = new Map<string, { value: number; kind: Kind; ordinal: boolean }>()
for (const [i, w] of UNITS.entries()) WORDS.set(w, { value: i, kind: 'unit', ordinal: false })
for (const [i, w] of ORDINAL_UNITS.entries()) WORDS.set(w, { value: i, kind: 'unit', ordinal: true })
for (const [i, w] of TEENS.entries()) WORDS.set(w, { value: 10 + i, kind: 'teen', ordinal: false })
for (const [i, w] of ORDINAL_TEENS.entries()) WORDS.set(w, { value: 10 + i, kind: 'teen', ordinal: true })
TENS.forEach((w, i) => {
  if (w === '') return
  WORDS.set(w, { value: 10 * i, kind: 'tens', ordinal: false })
  WORDS.set(`${w.slice(0, -1)}ieth`, { value: 10 * i, kind: 'tens', ordinal: true })
})
for (const [w, value] of Object.entries(SCALES)) {
  WORDS.set(w, { value, kind: 'scale', ordinal: false })
  WORDS.set(`${w}th`, { value, kind: 'scale', ordinal: true })
}

const WORD = [...WORDS.keys()].sort((a, b) => b.length - a.length).join('|')
const RUN = new RegExp(`\\b(?:${WORD})(?:(?:[ -]|\\s+and\\s+)(?:${WORD}))*\\b`, 'gi')
export function withDigits(text: string): string {
  let out = ''
  let last = 0
  // quoted text and everything after the first colon: kept as written
  for (const kept of quotedSpans(text, true)) {
    out += convert(text.slice(last, kept.index)) + text.slice(kept.index, kept.index + kept.length)
    last = kept.index + kept.length
  }
  return out + convert(text.slice(last))
}

const RANGE_BEFORE = /\b(?:from|between)\s+$/i
const RANGE_AFTER = /^\s+(?:to|and|through)\s+\w/i
const THE_BEFORE = /\bthe\s+$/i
const NUMBER_AFTER = new RegExp(`^\\s+(?:\\d|(?:${WORD})\\b)`, 'i')

function convert(text: string): string {
  return text.replace(RUN, (run: string, at: number) => {
    const whole = digits(run, text.slice(0, at), text.slice(at + run.length))
    if (whole !== null) return whole
    // "between one and fifty": two numbers joined by "and", not one
    const parts = splitAtAnd(run)
    if (parts.length === 1) return run
    return parts
      .map((part, i) =>
        i % 2 === 1 ? part : (digits(part, parts.slice(0, i).join('') || text.slice(0, at), parts.slice(i + 1).join('')) ?? part),
      )
      .join('')
  })
}

/** `run` as digits, or null; `before` and `after` are the text around it (for a lone "one"). */
function digits(run: string, before: string, after: string): string | null {
  if (/^one$/i.test(run) && !RANGE_BEFORE.test(before) && !RANGE_AFTER.test(after)) return null
  if (
    /^(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)$/i.test(run) &&
    (!THE_BEFORE.test(before) || NUMBER_AFTER.test(after))
  )
    return null
  const n = spelledValue(run)
  if (n === null) return null
  return n.ordinal ? `${n.value}${suffix(n.value)}` : String(n.value)
}

/** The number a run of words spells, or null when it spells none ("one two", "thousand ten"). */
function spelledValue(run: string): { value: number; ordinal: boolean } | null {
  const words = run
    .toLowerCase()
    .split(/[\s-]+/)
    .filter((w) => w !== '' && w !== 'and')
  let total = 0
  let group = 0 // below a thousand, not yet scaled
  let previous: Kind | undefined
  let ordinal = false
  for (const [i, word] of words.entries()) {
    const entry = WORDS.get(word)
    if (entry === undefined || ordinal) return null // an ordinal ends a number
    ordinal = entry.ordinal
    switch (entry.kind) {
      case 'unit':
        if (previous === 'unit' || previous === 'teen') return null
        group += entry.value
        break
      case 'teen':
      case 'tens':
        if (previous !== undefined && previous !== 'scale') return null
        group += entry.value
        break
      case 'scale':
        if (i === 0) {
          if (!entry.ordinal) return null // "hundred" alone is a word; "the hundredth" is 100th
          group = entry.value
        } else if (entry.value === 100) {
          if (group === 0 || group >= 100) return null
          group *= 100
        } else {
          if (group === 0) return null
          total += group * entry.value
          group = 0
        }
        break
    }
    previous = entry.kind
  }
  return { value: total + group, ordinal }
}

function suffix(n: number): string {
  if (n % 100 >= 11 && n % 100 <= 13) return 'th'
  return ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'
}

/** `run` split at each "and" between runs of white space, the separators kept between the parts. */
function splitAtAnd(run: string): string[] {
  const parts: string[] = []
  let from = 0
  for (const space of spaceRuns(run)) {
    const after = space.index + space.length
    if (space.index < from || run.slice(after, after + 3).toLowerCase() !== 'and' || !isSpace(run[after + 3])) continue
    let end = after + 3
    while (end < run.length && isSpace(run[end])) end++
    parts.push(run.slice(from, space.index), run.slice(space.index, end))
    from = end
  }
  parts.push(run.slice(from))
  return parts
}
