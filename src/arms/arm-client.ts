/**
 * An arm that runs as its own service (`ARM_<NAME>_URL`, or registered at run time), reached over
 * HTTP with the global fetch.
 *
 * ```ts
 * const executor = new HttpArmClient('http://127.0.0.1:8003')
 * const response = await executor.execute(request, token, signal) // POST /execute, Authorization: Bearer …
 * await executor.health(AbortSignal.timeout(2000))                 // GET /health
 * ```
 *
 * A step the arm ran and failed is a response (`status: "failed"`); these are thrown as StepError:
 *
 * | what happened | code | retryable |
 * |---|---|---|
 * | 401/403 | the refusal's `details.constraint` (TOKEN_*), else its `error.code` | no |
 * | 400 and other 4xx | ARM_BAD_REQUEST | no |
 * | 408, 429, 5xx, connection refused/reset, timeout | ARM_UNREACHABLE | yes |
 * | 200 that is not a valid ExecuteResponse | ARM_BAD_RESPONSE | yes |
 * | a reply longer than `replyLimitBytes` (default 32 MiB) | ARM_REPLY_TOO_LARGE | no |
 * | the caller's signal aborted | STEP_ABORTED | yes |
 *
 * `/execute` carries the task's `X-Request-ID` and, while tracing is on, the arm call's `traceparent`.
 *
 * The reply is read no further than the limit (a declared Content-Length over it is refused before
 * reading), so a broken or hostile arm cannot make the orchestrator buffer an unbounded body.
 */
import { Compile } from 'typebox/compile'
import { type Agent, fetch, type RequestInit, type Response } from 'undici'
import { StepError } from '../step-errors.js'
import { withRequestIdHeader } from '../telemetry/request-scope.js'
import { injectContext } from '../telemetry/tracing.js'
import { trimEndOf } from '../text-scan.js'
import { type AddressNotAllowed, type ArmAddressPolicy, guardedAgent, refusedLiteral } from './arm-address.js'
import { ArmCapability, ArmHealth, type ExecuteRequest, ExecuteResponse } from './contract.js'
import type { ArmService } from './registry.js'

const isResponse = Compile(ExecuteResponse)
const isHealth = Compile(ArmHealth)
const isCapability = Compile(ArmCapability)

/** The default bound on one reply: above the executor's largest fetch (10 MiB) with room for JSON. */
export const ARM_REPLY_LIMIT_BYTES = 32 * 1024 * 1024

export interface HttpArmClientOptions {
  /** Default ARM_REPLY_LIMIT_BYTES. */
  replyLimitBytes?: number
  /** Addresses the arm may have, checked at every connection (a registered arm's); none: any. */
  addresses?: ArmAddressPolicy
}

export class HttpArmClient implements ArmService {
  private readonly base: string
  private readonly replyLimitBytes: number
  private readonly refused: AddressNotAllowed | undefined
  private readonly agent: Agent | undefined

  constructor(
    readonly url: string,
    opts: HttpArmClientOptions = {},
  ) {
    this.base = trimEndOf(url, '/')
    this.replyLimitBytes = opts.replyLimitBytes ?? ARM_REPLY_LIMIT_BYTES
    if (opts.addresses !== undefined) {
      this.refused = refusedLiteral(url, opts.addresses)
      this.agent = guardedAgent(opts.addresses)
    }
  }

  async execute(request: ExecuteRequest, token: string, signal: AbortSignal): Promise<ExecuteResponse> {
    const { status, body } = await this.call('/execute', signal, {
      method: 'POST',
      // no token, no header: the arm then says TOKEN_MISSING rather than judging the text "undefined";
      // the task's request id and (tracing on) the arm call's span go with the step
      headers: injectContext(
        withRequestIdHeader({ 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }),
      ),
      body: JSON.stringify(request),
    })
    if (status === 200) {
      if (isResponse.Check(body)) return body
      throw new StepError('ARM_BAD_RESPONSE', `arm at ${this.base} answered /execute with something that is not an ExecuteResponse`)
    }
    throw this.statusError(status, body)
  }

  /** GET /health. A 503 carrying an ArmHealth is an answer (`unhealthy`), not an error. */
  async health(signal?: AbortSignal): Promise<ArmHealth> {
    const { status, body } = await this.call('/health', signal)
    if ((status === 200 || status === 503) && isHealth.Check(body)) return body
    if (status === 200)
      throw new StepError('ARM_BAD_RESPONSE', `arm at ${this.base} answered /health with something that is not an ArmHealth`)
    throw this.statusError(status, body)
  }

  async capabilities(signal?: AbortSignal): Promise<ArmCapability> {
    const { status, body } = await this.call('/capabilities', signal)
    if (status === 200) {
      if (isCapability.Check(body)) return body
      throw new StepError('ARM_BAD_RESPONSE', `arm at ${this.base} answered /capabilities with something that is not an ArmCapability`)
    }
    throw this.statusError(status, body)
  }

  /** Status and parsed JSON body (undefined when there is none or it does not parse). */
  private async call(path: string, signal: AbortSignal | undefined, init: RequestInit = {}): Promise<{ status: number; body: unknown }> {
    if (this.refused !== undefined) throw new StepError('ADDRESS_NOT_ALLOWED', `arm at ${this.base}: ${this.refused.message}`)
    try {
      const res = await fetch(`${this.base}${path}`, { ...init, ...(signal && { signal }), ...(this.agent && { dispatcher: this.agent }) })
      const text = await this.readCapped(res, path)
      let body: unknown
      try {
        body = text === '' ? undefined : JSON.parse(text)
      } catch {
        body = undefined
      }
      return { status: res.status, body }
    } catch (err) {
      if (err instanceof StepError) throw err
      if (signal?.aborted) throw new StepError('STEP_ABORTED', `the call to the arm at ${this.base} was aborted`)
      const cause = (err as { cause?: { code?: string; message?: string } }).cause
      if (cause?.code === 'ADDRESS_NOT_ALLOWED') throw new StepError('ADDRESS_NOT_ALLOWED', `arm at ${this.base}: ${cause.message}`)
      const why = cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err))
      throw new StepError('ARM_UNREACHABLE', `arm at ${this.base} could not be reached (${why})`)
    }
  }

  /** The reply's text, refusing it once it passes the limit (declared or read). */
  private async readCapped(res: Response, path: string): Promise<string> {
    const limit = this.replyLimitBytes
    const declared = Number(res.headers.get('content-length') ?? NaN)
    if (declared > limit) {
      await res.body?.cancel()
      throw this.tooLarge(path)
    }
    if (res.body === null) return ''
    const chunks: Uint8Array[] = []
    let size = 0
    for await (const chunk of res.body) {
      size += chunk.byteLength
      if (size > limit) {
        // leaving the loop early cancels the stream, which closes the connection
        throw this.tooLarge(path)
      }
      chunks.push(chunk)
    }
    return Buffer.concat(chunks, size).toString('utf8')
  }

  private tooLarge(where: string): StepError {
    return new StepError('ARM_REPLY_TOO_LARGE', `arm at ${this.base} answered ${where} with more than ${this.replyLimitBytes} bytes`)
  }

  private statusError(status: number, body: unknown): StepError {
    const error = (body as { error?: { code?: unknown; message?: unknown; details?: { constraint?: unknown } } } | undefined)?.error
    const message = typeof error?.message === 'string' ? error.message : `arm at ${this.base} answered ${status}`
    if (status === 401 || status === 403) {
      const constraint = error?.details?.constraint
      const code = typeof constraint === 'string' && /^TOKEN_[A-Z_]+$/.test(constraint) ? constraint : error?.code
      if (typeof code === 'string') return StepError.reported({ code, message, retryable: false })
      return new StepError(status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN', message)
    }
    if (status === 408 || status === 429 || status >= 500) return new StepError('ARM_UNREACHABLE', message)
    return new StepError('ARM_BAD_REQUEST', message)
  }
}
