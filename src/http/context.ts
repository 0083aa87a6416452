/**
 * What a handler sees of a request (`Ctx`) and what it returns (`Reply`). Handlers are plain
 * functions of these, so they can be unit-tested with a hand-made Ctx and no server.
 *
 * ```ts
 * const getEntry: Handler = (ctx) => ({ body: cache.get(ctx.params.key!) ?? throwNotFound() })
 * ```
 */
import type { Request, Response } from 'hyper-express'
import { NOBODY, type Principal } from '../auth/principal.js'
import type { Decision } from '../stores/rate-limit-store.js'
import { clientIp } from './client-ip.js'
import { HttpError } from './errors.js'
import { pathParameters, remoteAddress, watchAbort } from './hyper-express-internals.js'
import { NUL_CONSTRAINT } from './storable-text.js'

export interface Ctx<B = unknown> {
  readonly requestId: string
  readonly method: string
  readonly path: string
  readonly params: Readonly<Record<string, string>>
  readonly query: URLSearchParams
  /** A request header by name (any case). */
  headers(name: string): string | undefined
  /** The client address; `X-Forwarded-For` only with `trustProxy`. */
  readonly ip: string
  /** The parsed (and, with a schema, validated) JSON body; undefined on routes without a body. */
  readonly body: B
  /** Aborts when the client disconnects before the reply is sent. */
  readonly signal: AbortSignal
  /** Who is calling (src/auth/principal.ts): `NOBODY` on a public route. */
  readonly principal: Principal
  /** The request's rate-limit decision, when a limit applies to the route (it is on the reply's headers). */
  readonly rateLimit: Decision | undefined
  /** What the route's `credential` check resolved to (a capability route's verified token); undefined elsewhere. */
  readonly credential: unknown
}

export interface Reply {
  /** Default 200, or 204 when there is neither `body` nor `raw`. */
  status?: number
  /** Serialised with JSON.stringify. */
  body?: unknown
  headers?: Record<string, string>
  /** Pre-serialised JSON, sent as is (skips JSON.stringify on hot routes). */
  raw?: string | Buffer
  /**
   * `raw` is memory the route writes its next reply into. Safe to send as is: uWS copies a body
   * as it is handed over (a backpressured socket keeps its own copy), synchronously, before the
   * next request's handler runs; a send that must wait for the rest of the request body gets a copy.
   */
  rawReused?: boolean
  /**
   * The whole head as bytes, in place of `headers`: the value of `x-request-id` with every other
   * header's line after it (`\r\n`, a lower-case name, `: `, the value), `content-type` among them,
   * and no other line break; as `@ganglion/reflex`'s `CheckEndpoint` writes it. The route's reused
   * memory, as `raw`, when `rawReused`.
   */
  head?: Buffer
}

export type Handler<B = unknown> = (ctx: Ctx<B>) => Reply | Promise<Reply>

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({})

/**
 * Ctx over a hyper-express request. Everything costly (ip, query, signal) is computed on first
 * use, since the hot routes touch few of them.
 */
export class RequestContext<B = unknown> implements Ctx<B> {
  readonly requestId: string
  readonly method: string
  readonly path: string
  body: B
  principal: Principal = NOBODY
  rateLimit: Decision | undefined
  credential: unknown
  readonly #req: Request
  readonly #res: Response
  readonly #trustProxy: boolean
  #ip: string | undefined
  #query: URLSearchParams | undefined
  #abort: AbortController | undefined
  #params: Readonly<Record<string, string>> | undefined

  constructor(req: Request, res: Response, requestId: string, trustProxy: boolean) {
    this.#req = req
    this.#res = res
    this.requestId = requestId
    this.method = req.method
    this.path = req.path
    this.body = undefined as B
    this.#trustProxy = trustProxy
  }

  /**
   * Path parameters, percent-decoded; a malformed escape, or one that decodes to a NUL (no stored
   * id holds one, and PostgreSQL refuses it in a query), is a 400 naming the parameter. A lone
   * surrogate cannot come out: it has no UTF-8 form, so its escape is malformed.
   */
  get params(): Readonly<Record<string, string>> {
    if (this.#params === undefined) {
      const raw = pathParameters(this.#req)
      if (raw === undefined) return (this.#params = NO_PARAMS)
      const decoded: Record<string, string> = {}
      for (const name in raw) {
        const value = raw[name]!
        if (!value.includes('%')) {
          decoded[name] = value
          continue
        }
        let text: string
        try {
          text = decodeURIComponent(value)
        } catch {
          throw HttpError.validation(name, 'must be a valid percent-encoded path segment')
        }
        if (text.includes('\u0000')) throw HttpError.validation(name, NUL_CONSTRAINT)
        decoded[name] = text
      }
      this.#params = decoded
    }
    return this.#params
  }

  get query(): URLSearchParams {
    return (this.#query ??= new URLSearchParams(this.#req.path_query))
  }

  headers(name: string): string | undefined {
    return this.#req.headers[name.toLowerCase()]
  }

  /** uWS knows the socket address until the response ends; read it before replying. */
  get ip(): string {
    if (this.#ip === undefined) {
      this.#ip = clientIp(remoteAddress(this.#res), this.#req.headers['x-forwarded-for'], this.#trustProxy)
    }
    return this.#ip
  }

  get signal(): AbortSignal {
    if (this.#abort === undefined) {
      const abort = (this.#abort = new AbortController())
      if (!watchAbort(this.#req, this.#res, () => abort.abort())) abort.abort()
    }
    return this.#abort.signal
  }
}
