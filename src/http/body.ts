/**
 * Request bodies as JSON: the content type, and bytes parsed into a value with the error object
 * the HTTP layer answers for an empty, malformed, too deeply nested or unstorable body. Reading
 * the bytes themselves is `readBody` in hyper-express-internals.ts.
 */
import { HttpError } from './errors.js'
import { fieldAt, scanJson } from './json-depth.js'
import { refuseUnstorableText } from './storable-text.js'

/** The content type of every JSON reply. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

/** Arrays and objects a body may hold inside one another, the body itself counted. */
export const MAX_JSON_DEPTH = 64

/**
 * What a body's strings may hold: `storable` (default) refuses NUL and lone surrogates, which no
 * store keeps (storable-text.ts); `any` takes them, for routes that only screen text.
 */
export type BodyText = 'storable' | 'any'

const EMPTY_BODY = () => HttpError.validation('body', 'must NOT be empty', 'Request body is empty; send a JSON document')
const BAD_JSON = () => HttpError.validation('body', 'must be valid JSON', 'Request body is not valid JSON')

/**
 * The JSON value in `bytes`, or a 400 naming the field: the body is first scanned once for its
 * depth (json-depth.ts), so nothing deeper than `MAX_JSON_DEPTH` is ever built.
 */
export function parseJsonBody(bytes: Buffer, text: BodyText = 'storable'): unknown {
  const scan = scanJson(bytes, MAX_JSON_DEPTH)
  if (scan.tooDeepAt !== -1) throw HttpError.validation(fieldAt(bytes, scan.tooDeepAt), `must nest at most ${MAX_JSON_DEPTH} levels`)
  const source = bytes.toString('utf8')
  let value: unknown
  try {
    value = JSON.parse(source)
  } catch {
    throw source.trim() === '' ? EMPTY_BODY() : BAD_JSON()
  }
  if (text === 'storable' && scan.oddEscapes) refuseUnstorableText(value)
  return value
}

/** The 400 for a request that announces no body where one is needed. */
export function emptyBody(): HttpError {
  return EMPTY_BODY()
}

/** True for `application/json`, with optional parameters (`; charset=utf-8`), any case. */
export function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false
  if (value === 'application/json') return true
  const semi = value.indexOf(';')
  return (semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase() === 'application/json'
}
