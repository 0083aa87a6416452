/**
 * The JSON value a model meant, out of what it wrote around it: local models often wrap
 * structured output in a code fence (```` ```json … ``` ````) or in prose ("Here is the plan: {…}
 * Hope this helps"), even when the server was asked for JSON only.
 *
 * ```ts
 * jsonInText('```json\n{"steps":[]}\n```')              // { found: true, value: { steps: [] } }
 * jsonInText('Here is the plan: {"steps":[]} Enjoy!')   // { found: true, value: { steps: [] } }
 * jsonInText('{"steps": [')                             // { found: false }
 * ```
 *
 * The whole text is tried first; then the first balanced object or array, found by one scan that
 * counts brackets outside strings (no regular expression, nothing backtracks). A candidate that
 * does not balance or parse is given up and the next opening bracket tried, at most
 * `MAX_CANDIDATES` of them, so the work stays linear in the length of the reply.
 */

/** Opening brackets tried before giving up: prose seldom holds more brackets before the JSON. */
export const MAX_CANDIDATES = 8

export type Found = { found: true; value: unknown } | { found: false }

export function jsonInText(text: string): Found {
  const whole = parse(text)
  if (whole.found) return whole
  let from = 0
  for (let tried = 0; tried < MAX_CANDIDATES; tried++) {
    const start = nextOpening(text, from)
    if (start < 0) break
    const end = balancedEnd(text, start)
    if (end >= 0) {
      const value = parse(text.slice(start, end + 1))
      if (value.found) return value
    }
    from = start + 1
  }
  return { found: false }
}

function parse(text: string): Found {
  try {
    return { found: true, value: JSON.parse(text) }
  } catch {
    return { found: false }
  }
}

function nextOpening(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x7b || c === 0x5b) return i // { [
  }
  return -1
}

/** Index of the bracket that closes the one at `start`, strings skipped; -1 when none does. */
function balancedEnd(text: string, start: number): number {
  let depth = 0
  let inString = false
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c)
        i++ // backslash: the next character is escaped
      else if (c === 0x22) inString = false
      continue
    }
    if (c === 0x22) inString = true
    else if (c === 0x7b || c === 0x5b) depth++
    else if (c === 0x7d || c === 0x5d) {
      depth--
      if (depth === 0) return i
    }
  }
  return -1
}
