/**
 * How deep a JSON body nests, counted over its bytes before it is parsed: one linear pass, so a
 * body of thousands of nested arrays is refused before anything builds, stores or walks it.
 *
 * ```ts
 * deepestAt(Buffer.from('[[[1]]]'), 2)   // 2: the third `[` passes two levels
 * fieldAt(Buffer.from('{"a":[[1]]}'), 6)  // 'a[0]': the container that opens at byte 6
 * ```
 */

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_OBJECT = 0x7b
const OPEN_ARRAY = 0x5b
const CLOSE_OBJECT = 0x7d
const CLOSE_ARRAY = 0x5d
const LOWER_U = 0x75

/** What one pass over a body found. */
export interface JsonScan {
  /** Byte offset of the first `[` or `{` that nests deeper than `maxDepth`; -1 when none does. */
  tooDeepAt: number
  /**
   * True when a string holds an escape that can spell a NUL or a surrogate (`\u0000`, `\uD…`):
   * the only ways either reaches a parsed value, since a raw NUL is not valid JSON and invalid
   * UTF-8 decodes to U+FFFD.
   */
  oddEscapes: boolean
}

/**
 * One pass over `bytes`, counting arrays and objects inside one another outside strings. UTF-8
 * continuation bytes are all ≥ 0x80, so a quote or backslash byte is always that character.
 * Malformed JSON is scanned as far as it goes; the parser then refuses it.
 */
export function scanJson(bytes: Uint8Array, maxDepth: number): JsonScan {
  let depth = 0
  let inString = false
  let oddEscapes = false
  const n = bytes.length
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!
    if (inString) {
      if (b === QUOTE) inString = false
      else if (b === BACKSLASH) {
        if (bytes[i + 1] === LOWER_U && !oddEscapes) oddEscapes = oddEscape(bytes, i + 2)
        i++
      }
    } else if (b === QUOTE) inString = true
    else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
      if (++depth > maxDepth) return { tooDeepAt: i, oddEscapes }
    } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) depth--
  }
  return { tooDeepAt: -1, oddEscapes }
}

/** `0000`, or `d`/`D` followed by anything: the hex digits of a NUL or a surrogate escape. */
function oddEscape(bytes: Uint8Array, at: number): boolean {
  const first = bytes[at]
  if (first === 0x64 || first === 0x44) return true
  return first === 0x30 && bytes[at + 1] === 0x30 && bytes[at + 2] === 0x30 && bytes[at + 3] === 0x30
}

/** Longest field name reported; a longer path is cut, since keys are client text of any length. */
const MAX_FIELD_CHARS = 256

interface Frame {
  array: boolean
  /** The current key (objects) or index (arrays); undefined before an object's first key. */
  at: string | number | undefined
  expectKey: boolean
}

/**
 * The path (`context.a[0]`) of the array or object that opens at byte `offset` of `bytes`, as
 * validate.ts names fields; `body` for the body itself. Runs only on a refused body.
 */
export function fieldAt(bytes: Uint8Array, offset: number): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, offset).toString('utf8')
  const stack: Frame[] = []
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === '"') {
      const end = stringEnd(text, i)
      const top = stack[stack.length - 1]
      if (top !== undefined && !top.array && top.expectKey) {
        top.at = keyOf(text.slice(i, end + 1))
        top.expectKey = false
      }
      i = end
    } else if (c === '{') stack.push({ array: false, at: undefined, expectKey: true })
    else if (c === '[') stack.push({ array: true, at: 0, expectKey: false })
    else if (c === '}' || c === ']') stack.pop()
    else if (c === ',') {
      const top = stack[stack.length - 1]
      if (top?.array) top.at = (top.at as number) + 1
      else if (top !== undefined) top.expectKey = true
    }
  }
  let path = ''
  for (const frame of stack) {
    if (frame.array) path += `[${String(frame.at)}]`
    else path += path === '' ? String(frame.at ?? '') : `.${String(frame.at ?? '')}`
    if (path.length > MAX_FIELD_CHARS) return `${path.slice(0, MAX_FIELD_CHARS)}…`
  }
  return path === '' ? 'body' : path
}

/** Index of the quote that closes the string opening at `start` (or the last index). */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++
    else if (text[i] === '"') return i
  }
  return text.length - 1
}

function keyOf(quoted: string): string {
  try {
    return String(JSON.parse(quoted))
  } catch {
    return quoted.slice(1, -1)
  }
}
