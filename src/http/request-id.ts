/**
 * The request id every response carries in `X-Request-ID` and every error body in `request_id`.
 *
 * A client's own id is echoed when it is 1..200 printable ASCII characters (no leading or trailing
 * space); anything else, which could smuggle control characters into our response headers or logs,
 * is replaced by a fresh UUID.
 */
import { randomUUID } from 'node:crypto'

export const REQUEST_ID_HEADER = 'x-request-id'
export const MAX_REQUEST_ID_LENGTH = 200

const PRINTABLE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/

export function isValidRequestId(value: string): boolean {
  return value.length <= MAX_REQUEST_ID_LENGTH && PRINTABLE.test(value)
}

/** The id to use for a request whose `X-Request-ID` header is `sent` (undefined when absent). */
export function requestIdFrom(sent: string | undefined): string {
  return sent !== undefined && sent !== '' && isValidRequestId(sent) ? sent : randomUUID()
}
