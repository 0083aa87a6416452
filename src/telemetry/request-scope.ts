/**
 * The request id of the work in progress: set by the HTTP layer around each handler and by the
 * task runner around each job of a task (the id of the request that submitted it). Log lines
 * carry it (`request_id`, log.ts), and calls to arms and models forward it in `X-Request-ID`.
 *
 * ```ts
 * runWithRequestId(ctx.requestId, () => handler(ctx))
 * currentRequestId() // inside: the id; outside any request: undefined
 * ```
 */
import { AsyncLocalStorage } from 'node:async_hooks'

const scope = new AsyncLocalStorage<string>()

export function runWithRequestId<T>(requestId: string | undefined, fn: () => T): T {
  return requestId === undefined ? fn() : scope.run(requestId, fn)
}

export function currentRequestId(): string | undefined {
  return scope.getStore()
}

/** `X-Request-ID` of the work in progress added to `headers`, when there is one. */
export function withRequestIdHeader(headers: Record<string, string>): Record<string, string> {
  const id = scope.getStore()
  if (id !== undefined) headers['x-request-id'] = id
  return headers
}
