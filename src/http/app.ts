/**
 * A thin framework over hyper-express: handlers are plain functions `Ctx → Reply`, and every
 * common HTTP rule (request id, error object, 404/405/413/415, JSON bodies; docs/http.md) lives
 * here once.
 *
 * ```ts
 * const app = createHttpApp({ name: 'reflex', bodyLimitBytes: config.bodyLimitBytes, logger })
 * app.route('POST', '/api/v1/check', check, { schema: compileSchema(CheckRequest) })
 * app.route('GET', '/api/v1/cache/:key', (ctx) => ({ body: lookup(ctx.params.key!) }))
 * const port = await app.listen(config.reflexPort, config.host)
 * ```
 *
 * Routes must be added before `listen` (hyper-express locks its router then).
 */

import type { Request, Response } from 'hyper-express'
import HyperExpress from 'hyper-express'
import { type Authenticate, AuthenticationError, AuthenticationUnavailableError } from '../auth/authenticator.js'
import { can, NOBODY, type Permission, type Principal } from '../auth/principal.js'
import type { Decision } from '../stores/rate-limit-store.js'
import { runWithRequestId } from '../telemetry/request-scope.js'
import { extractContext, type Span, SpanKind, SpanStatusCode, startSpan, tracingOn, withSpan } from '../telemetry/tracing.js'
import { type BodyText, emptyBody, isJsonContentType, parseJsonBody } from './body.js'
import { type Ctx, type Handler, type Reply, RequestContext } from './context.js'
import { errorBody, HttpError, toHttpError } from './errors.js'
import { bodyReceived, closeConnections, listenExclusively, readBody, setHead, setHeaders, skipBody } from './hyper-express-internals.js'
import { PortInUseError } from './port-in-use.js'
import { callerOf, type RouteLimiter, tooManyRequests } from './rate-limit.js'
import { REQUEST_ID_HEADER, requestIdFrom } from './request-id.js'
import { type StreamLimits, StreamSlots } from './stream-slots.js'
import type { Validate } from './validate.js'

export type { Ctx, Handler, Reply } from './context.js'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS'

/** The subset of a pino logger the HTTP layer writes to. */
export interface HttpLogger {
  error(obj: object, msg?: string): void
  warn(obj: object, msg?: string): void
}

export interface HttpAppOptions {
  /** Names the service in logs. */
  name: string
  /** Larger bodies are refused with 413, by Content-Length or while reading a chunked body. */
  bodyLimitBytes: number
  logger: HttpLogger
  /** Honour `X-Forwarded-For` for `ctx.ip`. Default false. */
  trustProxy?: boolean
  /**
   * Called once per response (metrics). `route` is the declared pattern (`/api/v1/tasks/:task_id`),
   * `unmatched` for 404s of unknown paths. Unset: nothing is timed, the hot path pays nothing.
   */
  onResponse?: (method: string, route: string, status: number, seconds: number) => void
  /**
   * Who is calling, from the `Authorization` header: a principal, or a throw (a 401 `HttpError`).
   * Asked for every route whose permission is not `public` or `capability`, before its body is
   * parsed. Unset: such routes cannot be declared.
   */
  authenticate?: Authenticate
  /** The rate limit every route that needs a principal passes first (http/rate-limit.ts). Unset: none. */
  limit?: RouteLimiter
  /** Caps on the streams open at once, per caller and in all (http/stream-slots.ts). Unset: none. */
  streams?: StreamLimits
}

/** A declared route, as `routes()` lists it. */
export interface DeclaredRoute {
  method: HttpMethod
  path: string
  permission: Permission
}

// Where a response remembers its route pattern and start time, when `onResponse` is set, and
// its server span, when tracing is on.
const ROUTE = Symbol('route')
const STARTED = Symbol('started')
const SPAN = Symbol('span')
interface Observed {
  [ROUTE]?: string
  [STARTED]?: number
  [SPAN]?: Span
}

/** Ends the request's server span, if it has one, with the status answered. */
function endSpan(res: Response, status: number): void {
  const o = res as unknown as Observed
  const span = o[SPAN]
  if (span === undefined) return
  o[SPAN] = undefined
  span.setAttribute('http.response.status_code', status)
  if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
  span.end()
}

/** The handler's call, inside its request id and (tracing on) its server span. */
function within<T>(res: Response, requestId: string, fn: () => T): T {
  const span = (res as unknown as Observed)[SPAN]
  return runWithRequestId(requestId, span === undefined ? fn : () => withSpan(span, fn))
}

export interface RouteOptions<B> {
  /** What the caller needs (src/auth/principal.ts): checked before the body is read. */
  permission: Permission
  /**
   * `json` (default for POST, PUT, PATCH, and whenever a schema is given): `ctx.body` is the parsed
   * body; `bytes`: `ctx.body` is the JSON body's bytes, unparsed (the content type and size are
   * checked as for `json`), which may be uWS's own memory: read them before the handler returns
   * or awaits; `none`: a sent body is ignored.
   */
  body?: 'json' | 'bytes' | 'none'
  /** Validates the parsed body; `compileSchema(...)` from validate.ts. */
  schema?: Validate<B>
  /**
   * `storable` (default): a string or key of the body holding a NUL or a lone surrogate is a 400
   * naming it; `any`: taken as sent, for routes that screen text and store none of it.
   */
  text?: BodyText
  /**
   * A `capability` route's own check of the `Authorization` header (an arm's capability token),
   * run where the authenticator runs for other routes: before the body is read or its content type
   * judged. What it resolves to is `ctx.credential`; what it throws is the answer.
   */
  credential?: (authorization: string | undefined) => Promise<unknown>
}

/**
 * Server-Sent Events and other streamed replies: `res` is hyper-express's Response with the
 * `X-Request-ID` header already set; write with `res.write()` / `res.sse`, finish with `res.end()`.
 * `ctx.signal` aborts when the client goes away. A throw before anything is written becomes an
 * error object; after that the connection is closed.
 */
export type StreamHandler = (ctx: Ctx, res: Response) => void | Promise<void>

export interface HttpApp {
  route<B = unknown>(method: HttpMethod, path: string, handler: Handler<NoInfer<B>>, opts: RouteOptions<B>): void
  stream(method: HttpMethod, path: string, handler: StreamHandler, opts: { permission: Permission }): void
  /** Every route declared so far, with the permission it needs. */
  routes(): readonly DeclaredRoute[]
  /** Resolves with the port actually bound (useful with port 0). Default host 0.0.0.0. */
  listen(port: number, host?: string): Promise<number>
  close(): Promise<void>
}

export { JSON_CONTENT_TYPE } from './body.js'

// hyper-express would answer an over-long body itself with a bare 413; our own check runs first,
// so its limit only has to stay out of the way.
const HYPER_EXPRESS_BODY_LIMIT = Number.MAX_SAFE_INTEGER

export function createHttpApp(opts: HttpAppOptions): HttpApp {
  const server = new HyperExpress.Server({ auto_close: false, max_body_length: HYPER_EXPRESS_BODY_LIMIT })
  listenExclusively(server)
  const { logger, bodyLimitBytes: limit } = opts
  const trustProxy = opts.trustProxy ?? false
  const methodsByPath = new Map<string, HttpMethod[]>()
  const service = opts.name

  const onResponse = opts.onResponse
  function observe(res: Response, method: string, status: number): void {
    endSpan(res, status)
    if (onResponse === undefined) return
    const o = res as unknown as Observed
    const started = o[STARTED]
    onResponse(method, o[ROUTE] ?? 'unmatched', status, started === undefined ? 0 : (performance.now() - started) / 1000)
  }

  function sendReply(res: Response, requestId: string, reply: Reply, method: string, rateLimit?: Decision): void {
    if (res.completed) return
    const hasBody = reply.body !== undefined || reply.raw !== undefined
    const status = reply.status ?? (hasBody ? 200 : 204)
    // Reused memory is copied when it must outlive this call (see `bodyReceived`).
    const copy = reply.rawReused === true && !bodyReceived(res)
    let payload: string | Buffer | undefined
    if (reply.raw !== undefined) payload = copy ? Buffer.from(reply.raw) : reply.raw
    else if (reply.body !== undefined) payload = JSON.stringify(reply.body)
    if (status !== 200) res.status(status)
    if (reply.head !== undefined) setHead(res, copy ? Buffer.from(reply.head) : reply.head)
    else setHeaders(res, requestId, payload !== undefined && !setsContentType(reply.headers), reply.headers, rateLimit)
    res.send(payload)
    observe(res, method, status)
  }

  function sendError(res: Response, requestId: string, method: string, path: string, err: unknown): void {
    const e = toHttpError(err)
    if (!(err instanceof HttpError)) {
      if (e.status === 503) logger.warn({ err, service, requestId, method, path, dependency: e.details.field }, 'dependency unavailable')
      else logger.error({ err, service, requestId, method, path }, 'unhandled error in handler')
    }
    if (res.completed) return
    if (res.initiated) {
      // A stream already sent its status line: all that is left is to cut it short.
      try {
        res.close()
      } catch {
        // uWS already dropped the connection
      }
      return
    }
    // A body past the limit is not read: the 413 goes out whole at once and the connection is
    // closed, so the rest of the body is never taken in.
    const tooLarge = e.status === 413
    if (tooLarge) skipBody(res)
    res.status(e.status)
    setHeaders(res, requestId, true, e.headers)
    res.send(JSON.stringify(errorBody(e, requestId)), tooLarge)
    observe(res, method, e.status)
  }

  function run<B>(ctx: RequestContext<B>, res: Response, handler: Handler<B>): void {
    let out: Reply | Promise<Reply>
    try {
      out = within(res, ctx.requestId, () => handler(ctx))
    } catch (err) {
      sendError(res, ctx.requestId, ctx.method, ctx.path, err)
      return
    }
    if (out instanceof Promise) {
      out.then(
        (reply) => send(ctx, res, reply),
        (err: unknown) => sendError(res, ctx.requestId, ctx.method, ctx.path, err),
      )
    } else {
      send(ctx, res, out)
    }
  }

  function send(ctx: Ctx, res: Response, reply: Reply): void {
    try {
      sendReply(res, ctx.requestId, reply, ctx.method, ctx.rateLimit)
    } catch (err) {
      // e.g. a body JSON.stringify cannot serialise (BigInt, cycles)
      sendError(res, ctx.requestId, ctx.method, ctx.path, err)
    }
  }

  /** Declared length of the body: -1 for chunked, 0 for none. */
  function bodyLength(req: Request): number {
    const cl = req.headers['content-length']
    if (cl !== undefined) return Number(cl)
    return req.headers['transfer-encoding'] !== undefined ? -1 : 0
  }

  function register(method: HttpMethod, path: string, onRequest: (req: Request, res: Response) => void): void {
    const known = methodsByPath.get(path)
    if (known?.includes(method)) throw new Error(`${service}: route ${method} ${path} is declared twice`)
    const options = { max_body_length: HYPER_EXPRESS_BODY_LIMIT }
    if (onResponse !== undefined) {
      const handle = onRequest
      onRequest = (req, res) => {
        const o = res as unknown as Observed
        o[ROUTE] = path
        o[STARTED] = performance.now()
        handle(req, res)
      }
    }
    {
      // A server span per request while tracing is on, under the client's `traceparent`.
      const handle = onRequest
      onRequest = (req, res) => {
        if (tracingOn()) {
          const parent = extractContext({ traceparent: req.headers.traceparent, tracestate: req.headers.tracestate })
          const attributes = { 'http.request.method': req.method, 'http.route': path }
          ;(res as unknown as Observed)[SPAN] = startSpan(`${method} ${path}`, { kind: SpanKind.SERVER, attributes }, parent)
        }
        handle(req, res)
      }
    }
    switch (method) {
      case 'GET':
        server.get(path, options, onRequest)
        break
      case 'POST':
        server.post(path, options, onRequest)
        break
      case 'PUT':
        server.put(path, options, onRequest)
        break
      case 'PATCH':
        server.patch(path, options, onRequest)
        break
      case 'DELETE':
        server.delete(path, options, onRequest)
        break
      case 'HEAD':
        server.head(path, options, onRequest)
        break
      case 'OPTIONS':
        server.options(path, options, onRequest)
        break
    }
    if (known) {
      known.push(method)
      return
    }
    const allowed: HttpMethod[] = [method]
    methodsByPath.set(path, allowed)
    // uWS prefers a route for the exact method over `any`, so this only sees the other methods.
    server.any(path, options, (req, res) => {
      const requestId = requestIdFrom(req.headers[REQUEST_ID_HEADER])
      if (req.method === 'OPTIONS') {
        // What a client (or a CORS-unaware probe) asks to learn the methods: the answer, not a 405.
        return sendReply(res, requestId, { status: 204, headers: { allow: [...allowed, 'OPTIONS'].join(', ') } }, 'OPTIONS')
      }
      sendError(res, requestId, req.method, req.path, HttpError.methodNotAllowed(req.method, allowed))
    })
  }

  function startStream(ctx: RequestContext, res: Response, handler: StreamHandler, principal: Principal): void {
    ctx.principal = principal
    const fail = (err: unknown) => sendError(res, ctx.requestId, ctx.method, ctx.path, err)
    let release: () => void
    try {
      release = slots?.take(callerOf(principal, () => ctx.ip, ctx.headers('x-user-id'))) ?? (() => {})
    } catch (err) {
      fail(err)
      return
    }
    res.header(REQUEST_ID_HEADER, ctx.requestId)
    // Watch for disconnects from the start: hyper-express stops noticing them once the
    // status line is out, and writing to a socket uWS has dropped throws.
    void ctx.signal
    // The slot is held until the handler is done: it returns when the stream ends or the client goes.
    const done = (): void => {
      release()
      endSpan(res, res.completed || res.initiated ? 200 : 500)
    }
    try {
      const out = within(res, ctx.requestId, () => handler(ctx, res))
      if (out instanceof Promise) out.catch(fail).finally(done)
      else done()
    } catch (err) {
      done()
      fail(err)
    }
  }

  const declared: DeclaredRoute[] = []
  const slots = opts.streams && new StreamSlots(opts.streams)
  const authenticate = opts.authenticate
  const limitRoute = opts.limit

  /**
   * The check a route of `permission` runs on a request's `Authorization` header: the principal
   * (or its promise), or the 401 or 403 to answer. A route that needs a principal cannot be
   * declared on an app without an authenticator.
   */
  function guardFor(
    method: HttpMethod,
    path: string,
    permission: Permission,
    credential?: RouteOptions<unknown>['credential'],
  ): (authorization: string | undefined, ctx: RequestContext) => Principal | Promise<Principal> | HttpError {
    const open = permission === 'public' || permission === 'capability'
    if (!open && authenticate === undefined) {
      throw new Error(`${service}: route ${method} ${path} needs '${permission}' but the app has no authenticator`)
    }
    if (credential !== undefined && permission !== 'capability') {
      throw new Error(`${service}: route ${method} ${path} has a credential check but is not a capability route`)
    }
    declared.push({ method, path, permission })
    if (credential !== undefined) {
      return (authorization, ctx) => {
        try {
          return credential(authorization).then((c) => {
            ctx.credential = c
            return NOBODY
          })
        } catch (err) {
          return asHttpError(err)
        }
      }
    }
    if (open || authenticate === undefined) return () => NOBODY
    const access = method === 'GET' || method === 'HEAD' ? 'read' : 'write'
    // Allowed, then within its budget: the decision stays on the request for the reply's headers.
    const limited = (p: Principal, ctx: RequestContext): Principal | Promise<Principal> => {
      const d = limitRoute?.(p, () => ctx.ip, ctx.headers('x-user-id'), access)
      if (d === undefined) return p
      const settle = (decision: Decision): Principal => {
        if (!decision.allowed) throw tooManyRequests(decision)
        ctx.rateLimit = decision
        return p
      }
      return d instanceof Promise ? d.then(settle) : settle(d)
    }
    const allowed = (p: Principal): Principal => {
      if (!can(p, permission))
        throw HttpError.forbidden(
          `This credential lacks the ${permission} permission`,
          'authorization',
          `needs the ${permission} permission`,
        )
      return p
    }
    return (authorization, ctx) => {
      try {
        const who = authenticate(authorization)
        if (who instanceof Promise)
          return who.then((p) => limited(allowed(p), ctx)).catch((err: unknown) => Promise.reject(asHttpError(err)))
        const p = limited(allowed(who), ctx)
        return p instanceof Promise ? p.catch((err: unknown) => Promise.reject(asHttpError(err))) : p
      } catch (err) {
        return asHttpError(err)
      }
    }
  }

  server.set_not_found_handler((req, res) => {
    const requestId = requestIdFrom(req.headers[REQUEST_ID_HEADER])
    sendError(res, requestId, req.method, req.path, HttpError.notFound('path', `No route for ${req.method} ${req.path}`))
  })

  server.set_error_handler((req, res, err) => {
    // Only reached for errors hyper-express itself catches (our handlers catch their own).
    const requestId = requestIdFrom(req.headers[REQUEST_ID_HEADER])
    sendError(res, requestId, req.method, req.path, err)
  })

  return {
    route<B = unknown>(method: HttpMethod, path: string, handler: Handler<NoInfer<B>>, routeOpts: RouteOptions<B>): void {
      const { schema, permission, text = 'storable' } = routeOpts
      const bytesOnly = routeOpts.body === 'bytes'
      const wantsJson =
        bytesOnly ||
        routeOpts.body === 'json' ||
        (routeOpts.body === undefined && (schema !== undefined || method === 'POST' || method === 'PUT' || method === 'PATCH'))
      const guard = guardFor(method, path, permission, routeOpts.credential)

      register(method, path, (req, res) => {
        const ctx = new RequestContext<B>(req, res, requestIdFrom(req.headers[REQUEST_ID_HEADER]), trustProxy)
        const length = bodyLength(req)
        if (length > limit) return sendError(res, ctx.requestId, ctx.method, ctx.path, HttpError.payloadTooLarge(limit))
        // Who is asking, before anything of the body is read: sync when the credential is known.
        const who = guard(req.headers.authorization, ctx)
        if (who instanceof HttpError) return sendError(res, ctx.requestId, ctx.method, ctx.path, who)
        const proceed = (principal: Principal, body?: Buffer): void => {
          ctx.principal = principal
          if (body !== undefined) {
            try {
              ctx.body = bytesOnly
                ? (body as B)
                : schema === undefined
                  ? (parseJsonBody(body, text) as B)
                  : schema(parseJsonBody(body, text))
            } catch (verr) {
              sendError(res, ctx.requestId, ctx.method, ctx.path, verr)
              return
            }
          }
          run(ctx, res, handler)
        }
        const fail = (err: unknown): void => sendError(res, ctx.requestId, ctx.method, ctx.path, err)
        // An answer still to come is settled into a value at once: a refusal is answered, never left unhandled.
        const settled =
          who instanceof Promise
            ? who.then(
                (principal) => ({ principal }),
                (error: unknown) => ({ error }),
              )
            : undefined
        const then = (body?: Buffer): void => {
          if (settled === undefined) {
            proceed(who as Principal, body)
            return
          }
          settled.then((o) => ('error' in o ? fail(o.error) : proceed(o.principal, body)))
        }
        if (!wantsJson) return then()
        const contentType = req.headers['content-type']
        const refusal =
          length === 0 ? emptyBody() : isJsonContentType(contentType) ? undefined : HttpError.unsupportedMediaType(contentType)
        if (refusal !== undefined) {
          // A caller still being checked is answered as a caller first: no credential is a 401 whatever the body.
          if (settled === undefined) return fail(refusal)
          settled.then((o) => fail('error' in o ? o.error : refusal))
          return
        }

        // The body is read in this tick either way (uWS hands it over now), and parsed only once
        // the caller is known; bytes that must wait for the authenticator are copied out of uWS.
        readBody(req, length, limit, (err, bytes) => {
          if (err) return fail(err)
          then(settled === undefined ? bytes : Buffer.from(bytes))
        })
      })
    },

    stream(method: HttpMethod, path: string, handler: StreamHandler, streamOpts: { permission: Permission }): void {
      const guard = guardFor(method, path, streamOpts.permission)
      register(method, path, (req, res) => {
        const ctx = new RequestContext(req, res, requestIdFrom(req.headers[REQUEST_ID_HEADER]), trustProxy)
        if (bodyLength(req) > limit) return sendError(res, ctx.requestId, ctx.method, ctx.path, HttpError.payloadTooLarge(limit))
        const who = guard(req.headers.authorization, ctx)
        if (who instanceof HttpError) return sendError(res, ctx.requestId, ctx.method, ctx.path, who)
        if (who instanceof Promise) {
          // Watch for a disconnect while the authenticator answers.
          void ctx.signal
          who.then(
            (p) => startStream(ctx, res, handler, p),
            (err: unknown) => sendError(res, ctx.requestId, ctx.method, ctx.path, err),
          )
        } else startStream(ctx, res, handler, who)
      })
    },

    routes(): readonly DeclaredRoute[] {
      return declared
    },
    async listen(port: number, host = '0.0.0.0'): Promise<number> {
      try {
        await server.listen(port, host)
      } catch {
        // uWS says only that it got no socket; with the port checked free just before, another
        // process took it in between.
        throw new PortInUseError(port, host)
      }
      return server.port
    },

    async close(): Promise<void> {
      server.close()
      closeConnections(server)
    },
  }
}

/** Whether `headers` name a content type of their own, which then wins over the JSON default. */
function setsContentType(headers: Record<string, string> | undefined): boolean {
  if (headers === undefined) return false
  for (const name in headers) if (name.toLowerCase() === 'content-type') return true
  return false
}

/**
 * A refused credential as the 401 that challenges for a bearer token; one that could not be
 * judged (its verifier's dependency is down) as a 503 naming the dependency; anything else as it maps.
 */
function asHttpError(err: unknown): HttpError {
  if (err instanceof AuthenticationError) {
    return HttpError.unauthorized(err.message, { 'www-authenticate': 'Bearer' }, { field: 'authorization', constraint: err.constraint })
  }
  if (err instanceof AuthenticationUnavailableError) return HttpError.unavailable(err.dependency, err.message)
  return toHttpError(err)
}
