/**
 * One HTTP request to a model API, with what both HTTP providers need around `fetch`: a timeout
 * joined to the caller's signal, and every way it can fail turned into a stable `LlmError` code.
 *
 * ```ts
 * const call = new ProviderRequest('openai', 120_000, signal)
 * const res = await call.fetch(`${base}/chat/completions`, { method: 'POST', headers, body })
 * const body = await call.json(res)     // or readSse(res.body), mapping errors with call.failure(err)
 * ```
 *
 * Mapping: the caller's signal → `LLM_ABORTED`; the timeout, a connection error, 408, 409, 429
 * and 5xx → `LLM_UNAVAILABLE` (retryable); any other 4xx → `LLM_BAD_REQUEST`. The API's own error
 * message is kept (shortened), never the request.
 *
 * Every request carries the `X-Request-ID` of the work in progress and, while tracing is on, the
 * `traceparent` of the model call's span (docs/observability.md).
 */
import { withRequestIdHeader } from '../telemetry/request-scope.js'
import { injectContext } from '../telemetry/tracing.js'
import { trimEndOf } from '../text-scan.js'
import { LlmError } from './provider.js'

const MAX_DETAIL = 300

export class ProviderRequest {
  /** Aborts on the caller's signal or the timeout; covers reading the body too. */
  readonly signal: AbortSignal
  private readonly timeout: AbortSignal

  constructor(
    private readonly label: string,
    private readonly timeoutMs: number,
    private readonly callerSignal?: AbortSignal,
  ) {
    this.timeout = AbortSignal.timeout(timeoutMs)
    this.signal = callerSignal ? AbortSignal.any([callerSignal, this.timeout]) : this.timeout
  }

  /** Sends the request; a non-2xx answer is thrown as its `LlmError`. */
  async fetch(url: string, init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: unknown }): Promise<Response> {
    if (this.callerSignal?.aborted) throw this.failure(this.callerSignal.reason)
    let response: Response
    try {
      response = await fetch(url, {
        method: init.method,
        // The request's id and (tracing on) the model call's span travel with it.
        headers: injectContext(withRequestIdHeader({ ...init.headers })),
        body: init.body === undefined ? null : JSON.stringify(init.body),
        signal: this.signal,
      })
    } catch (err) {
      throw this.failure(err)
    }
    if (!response.ok) throw await this.statusError(response)
    return response
  }

  /** The body as JSON; an unreadable body is the server's fault, so retryable. */
  async json(response: Response): Promise<Record<string, unknown>> {
    let text: string
    try {
      text = await response.text()
    } catch (err) {
      throw this.failure(err)
    }
    try {
      const value: unknown = JSON.parse(text)
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>
    } catch {
      // reported below
    }
    throw new LlmError('LLM_UNAVAILABLE', `${this.label}: the reply is not a JSON object`)
  }

  /** The LlmError for anything thrown while sending or reading. */
  failure(err: unknown): LlmError {
    if (err instanceof LlmError) return err
    if (this.callerSignal?.aborted) return new LlmError('LLM_ABORTED', `${this.label}: request aborted`)
    if (this.timeout.aborted) return new LlmError('LLM_UNAVAILABLE', `${this.label}: no complete reply within ${this.timeoutMs} ms`)
    const cause = (err as { cause?: { code?: string; message?: string } }).cause
    const why = cause?.code ?? cause?.message ?? (err as Error).message ?? String(err)
    return new LlmError('LLM_UNAVAILABLE', `${this.label}: connection failed (${why})`)
  }

  private async statusError(response: Response): Promise<LlmError> {
    const detail = apiMessage(await response.text().catch(() => ''))
    const what = `${this.label}: HTTP ${response.status}${detail ? `: ${detail}` : ''}`
    const { status } = response
    if (status === 408 || status === 409 || status === 429 || status >= 500) {
      const after = response.headers.get('retry-after')
      return new LlmError('LLM_UNAVAILABLE', after ? `${what} (retry after ${after} s)` : what)
    }
    return new LlmError('LLM_BAD_REQUEST', what)
  }
}

/** The message of an OpenAI (`{error:{message}}`) or Anthropic (`{type:'error',error:{message}}`) error body. */
export function apiMessage(text: string): string {
  let message = text
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown }
    const found = typeof body.error === 'string' ? body.error : (body.error?.message ?? body.message)
    if (typeof found === 'string') message = found
  } catch {
    // not JSON: the text itself
  }
  message = message.replace(/\s+/g, ' ').trim()
  return message.length > MAX_DETAIL ? `${message.slice(0, MAX_DETAIL)}…` : message
}

/** `base` without a trailing slash, so `${base}/path` never doubles it; a base that is no URL is a configuration error. */
export function trimBase(base: string, provider: string): { base: string; host: string } {
  try {
    const url = new URL(base)
    if (url.protocol === 'http:' || url.protocol === 'https:') return { base: trimEndOf(base, '/'), host: url.host }
  } catch {
    // reported below
  }
  throw new LlmError('LLM_NOT_CONFIGURED', `${provider}: base URL must be an http(s) URL (LLM_BASE_URL)`)
}
