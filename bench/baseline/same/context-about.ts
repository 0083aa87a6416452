/**
 * The about-words of the benign-context judgement (crates/reflex-core/src/injection/context.rs,
 * `ABOUT` and `about_in`), in plain TypeScript: words that show a sentence talks about
 * injection rather than making one.
 *
 * ```ts
 * aboutIn('the phrase x is a known attack', 0, 30) // true
 * aboutIn('mail attacker.example now', 0, 25)      // false: part of a domain
 * ```
 */

/** Nouns and phrases that show a sentence is about injection rather than an instance of it. */
export const ABOUT: readonly string[] = [
  'prompt injection', 'injection attack', 'injections', 'jailbreak', 'attack', 'adversarial',
  'exploit', 'red team', 'red-team', 'classifier', 'detector', 'phrase', 'example', 'pattern',
  'payload', 'technique', 'vulnerabilit', 'known trick', 'malicious prompt', 'such as',
  'e.g.', 'for instance', 'security training', 'what does', 'what is meant', 'means',
]

// One alternation finds, at a given start, the one about-word that begins there: no word is a
// prefix of another (a test asserts it), so at most one can match at any position.
const ABOUT_WORD = new RegExp(ABOUT.map((w) => w.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')).join('|'), 'g')

/** The ASCII letters and digits, by code unit (the Rust code tests bytes). */
function isAsciiAlnum(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)
}

/**
 * Whether an about-word found at `start..end` of `text` counts: it starts a word (no ASCII
 * letter, digit, `.`, `@` or `/` before it) and the word it ends in is not followed by `.` or
 * `@` and a letter or digit, so `attacker.example` or `archive@attack.example` say nothing.
 * Both look past the searched span, at the whole text, as the Rust code does.
 */
function counts(text: string, start: number, end: number): boolean {
  if (start > 0) {
    const before = text.charCodeAt(start - 1)
    if (isAsciiAlnum(before) || before === 0x2e || before === 0x40 || before === 0x2f) return false
  }
  let e = end
  while (e < text.length && isAsciiAlnum(text.charCodeAt(e))) e++
  const after = text.charCodeAt(e)
  const domain = (after === 0x2e || after === 0x40) && e + 1 < text.length && isAsciiAlnum(text.charCodeAt(e + 1))
  return !domain
}

/**
 * Whether `text.slice(from, to)` holds an about-word that counts.
 *
 * The Rust code asks the `aho-corasick` crate for its non-overlapping matches with standard
 * semantics and takes the first that counts. Those matches are not every occurrence: the search
 * reports the word that ends first (the longest of those ending there, as "injection attack"
 * over "attack"), then goes on from its end, so a word overlapping a reported one is never seen
 * ("xprompt injections": "prompt injection" is reported and does not count, "injections" is
 * skipped). The same choice is made here from the list of all occurrences.
 */
export function aboutIn(text: string, from: number, to: number): boolean {
  if (from >= to) return false
  const span = text.slice(from, to)
  // Every occurrence, by start: [start, end] pairs in `text`'s indices.
  const found: Array<[number, number]> = []
  ABOUT_WORD.lastIndex = 0
  for (let m = ABOUT_WORD.exec(span); m !== null; m = ABOUT_WORD.exec(span)) {
    found.push([from + m.index, from + m.index + m[0].length])
    ABOUT_WORD.lastIndex = m.index + 1
  }
  let resume = from
  for (;;) {
    // The occurrence starting at `resume` or later that ends first; on a tie, the longest.
    let pick: [number, number] | undefined
    for (const f of found) {
      if (f[0] >= resume && (pick === undefined || f[1] < pick[1])) pick = f
    }
    if (pick === undefined) return false
    if (counts(text, pick[0], pick[1])) return true
    resume = pick[1]
  }
}
