/**
 * The values a template needs, read from a spec's words: integers ("20th" is 20), a list of
 * numbers, the text a string operation is about.
 *
 * ```ts
 * numbersIn('sort 5, -3 and 9.5')        // [5, -3, 9.5]
 * subjectText('reverse "stressed"')      // 'stressed'
 * subjectText('count the words in: a b') // 'a b'
 * ```
 */

/** Numbers as written, ordinals included. */
export function numbersIn(spec: string): number[] {
  const out: number[] = []
  for (const m of spec.matchAll(/(?<![\w.])-?\d{1,3}(?:,\d{3})+(?![\d.])|(?<![\w.])-?\d+(?:\.\d+)?(?:st|nd|rd|th)?\b/g)) {
    // "1,000" is one number (groups of three, no space); "5, 3, 9" and "5,3,9" are three.
    const value = Number(m[0].replace(/(st|nd|rd|th)$/, '').replace(/,/g, ''))
    if (Number.isFinite(value)) out.push(value)
  }
  return out
}

/** The first integer in the spec, or null. */
export function firstInteger(spec: string): number | null {
  const n = numbersIn(spec).find((v) => Number.isInteger(v))
  return n === undefined ? null : n
}

/** Text a string operation works on: quoted (double, curly or backticks, then single), or after a colon. */
export function subjectText(spec: string): string | null {
  const quoted = /"([^"]*)"|“([^”“]*)”|`([^`]*)`|(?<![\w])'([^']*)'(?![\w])|‘([^’‘]*)’/.exec(spec)
  if (quoted) return quoted.slice(1).find((g) => g !== undefined) ?? ''
  const colon = spec.indexOf(':')
  if (colon !== -1 && spec.slice(colon + 1).trim() !== '') return spec.slice(colon + 1).trim()
  return null
}

/** A JavaScript literal for a string: JSON is valid JavaScript, escapes included. */
export function literal(text: string): string {
  return JSON.stringify(text)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}
