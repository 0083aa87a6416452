/**
 * Request bodies as JSON: the content type, and bytes parsed into a value with the error object
 * the HTTP layer answers for an empty or malformed body. Reading the bytes themselves is
 * `readBody` in hyper-express-internals.ts.
 */
import { HttpError } from './errors.js'

/** The content type of every JSON reply. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'

const EMPTY_BODY = () => HttpError.validation('body', 'must NOT be empty', 'Request body is empty; send a JSON document')
const BAD_JSON = () => HttpError.validation('body', 'must be valid JSON', 'Request body is not valid JSON')

/** The JSON value in `bytes`, or a 400 naming the body. */
export function parseJsonBody(bytes: Buffer): unknown {
  const text = bytes.toString('utf8')
  try {
    return JSON.parse(text)
  } catch {
    throw text.trim() === '' ? EMPTY_BODY() : BAD_JSON()
  }
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
