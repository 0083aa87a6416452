/**
 * Reading request bodies fast, within a byte limit.
 *
 * hyper-express's `req.json()` costs a promise chain, a fresh TextDecoder and a full copy per
 * request, and its own body limit answers 413 without our error object; chunked bodies (no
 * Content-Length) it does not read at all. So bodies are read here, on hyper-express 6.14.8
 * internals (pinned, DESIGN.md §9):
 *
 * - Content-Length bodies: the route's body parser is switched to its pass-through mode in the same
 *   tick the handler runs, so uWS chunks arrive here uncopied; a body that arrives in one chunk (the
 *   usual case below ~64 KiB) is handed over as a view of uWS's memory, otherwise chunks are copied
 *   once into a buffer of the announced size.
 * - chunked bodies: uWS's own `onData`, counting bytes so an endless body is cut at the limit.
 *
 * Measured with autocannon on a 1 KB body: see docs/http.md.
 */
import type { Request, Response } from 'hyper-express'
import { HttpError } from './errors.js'

/** The parts of hyper-express 6.14.8's Request this module drives (private there). */
interface RequestInternals {
  _body_parser_mode: number
  _body_parser_passthrough: ((chunk: Uint8Array, isLast: boolean) => void) | undefined
  _body_parser_flush_buffered(): void
  received: boolean
  _raw_response: { onData(handler: (chunk: ArrayBuffer, isLast: boolean) => void): void }
}

const PASSTHROUGH_MODE = 1

/** `body` may be uWS's own memory, valid only until the callback returns: decode or copy it there. */
export type BodyCallback = (err: HttpError | null, body: Buffer) => void

const EMPTY = Buffer.alloc(0)

/**
 * Calls `done` once with the body's bytes, or with a 413 when it exceeds `limitBytes`.
 * Must be called in the same tick as the route handler (before uWS delivers the first chunk).
 * `contentLength` is the parsed header, or -1 for a chunked body.
 */
export function readBody(req: Request, _res: Response, contentLength: number, limitBytes: number, done: BodyCallback): void {
  const internals = req as unknown as RequestInternals
  if (contentLength >= 0) {
    let buffer: Buffer | undefined
    let offset = 0
    internals._body_parser_mode = PASSTHROUGH_MODE
    internals._body_parser_passthrough = (chunk, isLast) => {
      // hyper-express marks the body received only after this callback returns; a reply sent
      // from it would be deferred to a 'received' event, which builds a Readable stream and an
      // event listener per request. The body is all here, so say so first.
      if (isLast) internals.received = true
      if (isLast && offset === 0) {
        // Whole body in one chunk: read in place, uWS reuses that memory once we return.
        done(null, Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))
        return
      }
      buffer ??= Buffer.allocUnsafe(contentLength)
      buffer.set(chunk, offset)
      offset += chunk.byteLength
      if (isLast) done(null, buffer.subarray(0, offset))
    }
    internals._body_parser_flush_buffered()
    return
  }

  const chunks: Buffer[] = []
  let received = 0
  let finished = false
  internals._raw_response.onData((chunk, isLast) => {
    if (finished) return
    received += chunk.byteLength
    if (received > limitBytes) {
      finished = true
      done(HttpError.payloadTooLarge(limitBytes), EMPTY)
      return
    }
    // uWS frees the chunk when this callback returns: keep a copy.
    if (chunk.byteLength > 0) chunks.push(Buffer.from(chunk.slice(0)))
    if (isLast) {
      finished = true
      done(null, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received))
    }
  })
}

/** True for `application/json`, with optional parameters (`; charset=utf-8`), any case. */
export function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false
  if (value === 'application/json') return true
  const semi = value.indexOf(';')
  return (semi === -1 ? value : value.slice(0, semi)).trim().toLowerCase() === 'application/json'
}
