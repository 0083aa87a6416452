/**
 * The size bound on a log line (log.ts applies it to every line, before the redactor). Components
 * log errors and values whose size a client controls: a step's error quoting a megabyte output, an
 * `err` whose message and stack hold a request body. Whole, such a line costs the redactor about
 * 0.1 s of event loop a megabyte and a log pipeline a giant record.
 *
 * ```ts
 * boundLine(`{"level":40,"error":{"message":"${'x'.repeat(1 << 20)}"},"msg":"step failed"}\n`)
 * // '{"level":40,"error":{"message":"xxx…x […1044507 characters cut…]"},"msg":"step failed"}\n'
 * ```
 *
 * A line of at most MAX_LINE_CHARS is written as it is: checking costs its length, nothing more.
 * A longer one is parsed and written again with each string (value or key) cut to at most
 * MAX_FIELD_CHARS, marker included, within what is left of MAX_LINE_CHARS for the whole line:
 * pino's own fields and `msg` first, then the others in order. A string, entry or field the line
 * has no room left for is replaced by a marker saying how much was cut. A cut goes where it splits
 * none of the personal data `find` sees around it, so the redactor after it still recognises all
 * it keeps (./cut-clear-of-pii.ts).
 */
import { clearOfPii, cutNote, type PiiFinder, wholeEnd } from './cut-clear-of-pii.js'

/** A log line (UTF-16 units of its JSON) longer than this is cut: 32 KiB of ASCII. */
export const MAX_LINE_CHARS = 32_768
/** What a cut line keeps of one string: enough for an error's message and the top of its stack. */
export const MAX_FIELD_CHARS = 4_096
/** A string with less room than this left is replaced by its marker alone. */
const MIN_KEPT_CHARS = 32
/** pino's own fields and the message: the budget serves these first. */
const FIRST_KEYS = ['level', 'time', 'pid', 'hostname', 'name', 'msg']
/** Room kept for the markers and punctuation a cut adds, so the cut line fits MAX_LINE_CHARS. */
const SLACK_CHARS = 512

/** `line` (one JSON line from pino, ending in a newline), or a version of it within MAX_LINE_CHARS. */
export function boundLine(line: string, find?: PiiFinder): string {
  if (line.length <= MAX_LINE_CHARS) return line
  const end = line.endsWith('\n') ? '\n' : ''
  const budget = { left: MAX_LINE_CHARS - SLACK_CHARS - end.length, find }
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    // Not pino's JSON (a custom serializer's output?): keep its head as a string, which is JSON.
    value = { log_line: line }
  }
  const bounded = JSON.stringify(isObject(value) ? boundTop(value, budget) : boundValue(value, budget))
  if (bounded.length + end.length <= MAX_LINE_CHARS) return bounded + end
  // Unreachable while the slack covers the markers; kept so no path writes past the bound.
  return JSON.stringify({ log_line: cutNote(line.length) }) + end
}

interface Budget {
  /** Characters of JSON the rest of the line may take. */
  left: number
  find: PiiFinder | undefined
}

type Json = string | number | boolean | null | Json[] | { [key: string]: Json }

/** The top object: FIRST_KEYS take from the budget first; the keys keep their order. */
function boundTop(obj: Record<string, unknown>, budget: Budget): Record<string, Json> {
  const keys = Object.keys(obj)
  return boundFields(obj, budget, [...FIRST_KEYS.filter((k) => k in obj), ...keys.filter((k) => !FIRST_KEYS.includes(k))])
}

/**
 * `obj` with its fields bounded in the order `order` (all its keys) takes from the budget, written
 * in the object's own key order; the fields the budget has no room left for are counted in one
 * marker field at the end.
 */
function boundFields(obj: Record<string, unknown>, budget: Budget, order: readonly string[]): Record<string, Json> {
  const kept = new Map<string, [string, Json]>()
  let cut = 0
  for (const key of order) {
    if (budget.left <= 0) cut += 1
    else kept.set(key, boundEntry(key, obj[key], budget))
  }
  const out = Object.create(null) as Record<string, Json> // a "__proto__" key stays a key
  for (const key of Object.keys(obj)) {
    const entry = kept.get(key)
    if (entry !== undefined) out[entry[0]] = entry[1]
  }
  if (cut > 0) out['…'] = `${cut} more fields cut`
  return out
}

/** A key and its value, both bounded; a key is cut like a string value. */
function boundEntry(key: string, value: unknown, budget: Budget): [string, Json] {
  const k = boundString(key, budget)
  budget.left -= 2 // the colon and the comma
  return [k, boundValue(value, budget)]
}

function boundValue(value: unknown, budget: Budget): Json {
  if (typeof value === 'string') return boundString(value, budget)
  if (Array.isArray(value)) return boundArray(value, budget)
  if (isObject(value)) return boundObject(value, budget)
  const json = value as number | boolean | null
  budget.left -= JSON.stringify(json).length
  return json
}

function boundArray(items: unknown[], budget: Budget): Json[] {
  const out: Json[] = []
  budget.left -= 2
  for (const [i, item] of items.entries()) {
    if (budget.left <= 0) {
      out.push(`[…${items.length - i} more entries cut…]`)
      break
    }
    out.push(boundValue(item, budget))
    budget.left -= 1
  }
  return out
}

function boundObject(obj: Record<string, unknown>, budget: Budget): Record<string, Json> {
  budget.left -= 2
  return boundFields(obj, budget, Object.keys(obj))
}

function boundString(text: string, budget: Budget): string {
  const kept = cutString(text, Math.min(MAX_FIELD_CHARS, budget.left), budget.find)
  budget.left -= jsonChars(kept) + 2
  return kept
}

/**
 * `text`, or its head and a marker within `room` characters of JSON, the head ending clear of
 * personal data. Escapes make JSON longer than the text (a control character takes six), so the
 * head shrinks until it fits.
 */
function cutString(text: string, room: number, find: PiiFinder | undefined): string {
  if (text.length <= room && jsonChars(text) <= room) return text
  let headRoom = Math.min(text.length, room) - cutNote(text.length).length - 1
  while (headRoom >= MIN_KEPT_CHARS) {
    const at = wholeEnd(text, headRoom)
    const head = find === undefined ? at : clearOfPii(find, text, at, 'back')
    const kept = `${text.slice(0, head)} ${cutNote(text.length - head)}`
    const over = jsonChars(kept) - room
    if (over <= 0) return kept
    headRoom = Math.min(headRoom - 1, Math.floor((headRoom * room) / (room + over)))
  }
  // No room for a head: the marker alone, unless the text is no longer than the marker.
  const note = cutNote(text.length)
  return jsonChars(text) <= note.length ? text : note
}

/** Characters `text` takes in JSON, quotes aside. */
function jsonChars(text: string): number {
  return JSON.stringify(text).length - 2
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
