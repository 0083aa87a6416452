/**
 * Everything the HTTP layer reads or drives inside hyper-express that is not its public API, in
 * one place. hyper-express is pinned to 6.14.8 (with uWebSockets.js 20.30 under it: the newest
 * builds that run on glibc 2.36 and Node 20; see docs/architecture.md); each item here says why it
 * is needed. `test/http/hyper-express-internals-are-those-of-the-pinned-version.test.ts` fails
 * loudly when an upgrade moves any of them.
 */
import { createRequire } from 'node:module'
import type HyperExpress from 'hyper-express'
import type { Request, Response } from 'hyper-express'
import type { Decision } from '../stores/rate-limit-store.js'
import { JSON_CONTENT_TYPE } from './body.js'
import { HttpError } from './errors.js'
import { REQUEST_ID_HEADER } from './request-id.js'

/** The version these internals were read from. */
export const PINNED_VERSION = '6.14.8'

/** The installed hyper-express version. */
export function installedVersion(): string {
  return (createRequire(import.meta.url)('hyper-express/package.json') as { version: string }).version
}

interface RequestInternals {
  /** Path parameters as uWS matched them, still percent-encoded (`req.path_parameters` decodes none either, and copies). */
  _path_parameters?: Record<string, string>
  _body_parser_mode: number
  _body_parser_passthrough: ((chunk: Uint8Array, isLast: boolean) => void) | undefined
  _body_parser_flush_buffered(): void
  _body_parser_stop(): void
  received: boolean
  _raw_response: { onData(handler: (chunk: ArrayBuffer, isLast: boolean) => void): void }
}

interface ResponseInternals {
  completed: boolean
  initiated: boolean
  _writable: unknown
  _wrapped_request: RequestInternals
  emit(event: string, ...args: unknown[]): boolean
}

/** The body parser's pass-through mode: chunks go to `_body_parser_passthrough` as they come. */
const PASSTHROUGH_MODE = 1

/** The route's path parameters, still percent-encoded; undefined on a route without any. */
export function pathParameters(req: Request): Record<string, string> | undefined {
  return (req as unknown as RequestInternals)._path_parameters
}

/** `body` may be uWS's own memory, valid only until the callback returns: decode or copy it there. */
export type BodyCallback = (err: HttpError | null, body: Buffer) => void

const EMPTY = Buffer.alloc(0)

/**
 * Calls `done` once with the body's bytes, or with a 413 when it exceeds `limitBytes`. Must be
 * called in the same tick as the route handler (before uWS delivers the first chunk).
 * `contentLength` is the parsed header, or -1 for a chunked body.
 *
 * hyper-express's `req.json()` costs a promise chain, a fresh TextDecoder and a full copy per
 * request, its own body limit answers 413 without the error object, and it does not read chunked
 * bodies. So a Content-Length body is read through the body parser's pass-through mode, switched
 * on in the handler's tick so uWS chunks arrive uncopied (a body in one chunk, the usual case
 * below ~64 KiB, is handed over as a view of uWS's memory); a chunked body through uWS's own
 * `onData`, counting bytes so an endless body is cut at the limit.
 */
export function readBody(req: Request, contentLength: number, limitBytes: number, done: BodyCallback): void {
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

/**
 * Lets a reply go out before the request's body has arrived: hyper-express would otherwise write
 * the status line and headers at once but hold the rest until the whole declared body came in,
 * which for a Content-Length past the limit may be never. Chunks still arriving are dropped.
 */
export function skipBody(res: Response): void {
  const req = (res as unknown as ResponseInternals)._wrapped_request
  req._body_parser_stop()
  req.received = true
}

/**
 * Whether hyper-express has the whole request body: until then `send` keeps the body to write on
 * its 'received' event instead of handing it to uWS at once (so memory the route reuses must be
 * copied first).
 */
export function bodyReceived(res: Response): boolean {
  return (res as unknown as ResponseInternals)._wrapped_request.received
}

/**
 * Calls `onAbort` when the client goes away before the response is done. hyper-express's own
 * abort handler ignores disconnects once a response has started, which would leave streams
 * writing to a dead socket; this one mirrors it and always calls back. Returns false, calling
 * nothing, when the response is already complete.
 */
export function watchAbort(req: Request, res: Response, onAbort: () => void): boolean {
  const internals = res as unknown as ResponseInternals
  if (internals.completed) return false
  res.raw.onAborted(() => {
    internals.completed = true
    internals._wrapped_request._body_parser_stop()
    if (internals._writable) {
      internals.emit('abort', req, res)
      internals.emit('close', req, res)
    }
    onAbort()
  })
  return true
}

/** The peer's address as uWS reports it; empty once the response is complete (uWS has let go of the socket). */
export function remoteAddress(res: Response): string {
  if ((res as unknown as ResponseInternals).completed) return ''
  return Buffer.from((res.raw as unknown as { getRemoteAddressAsText(): ArrayBuffer }).getRemoteAddressAsText()).toString()
}

/** Closes the listening socket and idle keep-alive connections too, so a closed server lets the process exit. */
export function closeConnections(server: HyperExpress.Server): void {
  const uws = server.uws_instance as unknown as { close?: () => void }
  uws.close?.()
}

/** uWS's `LIBUS_LISTEN_EXCLUSIVE_PORT`: listen without SO_REUSEPORT. */
const LISTEN_EXCLUSIVE_PORT = 1

/**
 * Makes `server.listen` take its port for this process alone. uWS listens with SO_REUSEPORT by
 * default, so a second service started on a port a live one holds would listen beside it and the
 * kernel would hand each new connection to either; with `LIBUS_LISTEN_EXCLUSIVE_PORT` the second
 * listen fails instead. hyper-express calls `listen(host, port, callback)` on its uWS app and has
 * no option for this, so the call gets the option added on the way.
 */
export function listenExclusively(server: HyperExpress.Server): void {
  type Listen = (host: string, port: number, ...rest: unknown[]) => unknown
  const uws = server.uws_instance as unknown as { listen: Listen }
  const listen = uws.listen.bind(uws)
  uws.listen = (host, port, callback) => listen(host, port, LISTEN_EXCLUSIVE_PORT, callback)
}

/**
 * Sets the reply's headers as one: the request id's header carries every other header's line in its
 * value (`content-type` first when `json`, then the request's `limits` as `RateLimit-*`). For each header, hyper-express lower-cases the name into
 * an object that `send` walks again, and uWS makes a UTF-8 copy of the name and of the value:
 * ~1.3k instructions a header, a tenth of a check request. uWS 20.30 writes a value as it is given,
 * so the lines after the first ride in its value, one copy in all. Names are the routes' own
 * constants; every value is checked for line breaks first, so none can add a line of its own (the
 * request id is printable ASCII, see request-id.ts).
 */
export function setHeaders(
  res: Response,
  requestId: string,
  json: boolean,
  more: Record<string, string> | undefined,
  limits?: Decision,
): void {
  let head = json ? requestId + CONTENT_TYPE_LINE : requestId
  if (limits !== undefined) {
    head += `\r\nratelimit-limit: ${limits.limit}\r\nratelimit-remaining: ${limits.remaining}\r\nratelimit-reset: ${Math.ceil(limits.resetMs / 1000)}`
  }
  if (more !== undefined) {
    for (const name in more) {
      const value = more[name]!
      if (value.indexOf('\n') !== -1 || value.indexOf('\r') !== -1) throw new Error(`header ${name} holds a line break`)
      head += `\r\n${name}: ${value}`
    }
  }
  res.header(REQUEST_ID_HEADER, head)
}

/**
 * Sets a head written elsewhere as bytes (`Reply.head`): the request id's header value with the other
 * headers' lines after it. hyper-express hands a header's value to uWS as it is, and uWS takes bytes.
 */
export function setHead(res: Response, head: Buffer): void {
  res.header(REQUEST_ID_HEADER, head as unknown as string)
}

const CONTENT_TYPE_LINE = `\r\ncontent-type: ${JSON_CONTENT_TYPE}`
