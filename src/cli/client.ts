/**
 * The HTTP client the `ganglion` client commands share: JSON requests with the bearer credential,
 * the service's error object turned into an exit code, and a task's Server-Sent Events followed
 * across dropped connections (`Last-Event-ID`), as src/orchestrator/events-route.ts serves them.
 *
 * ```ts
 * const api = new ApiClient({ url: 'http://127.0.0.1:8000', key: process.env.GANGLION_API_KEY })
 * const task = await api.request('POST', '/api/v1/tasks', { goal: 'Compute the 20th Fibonacci number' })
 * const status = await api.follow(task.task_id, (e) => console.log(e.event), signal)
 * ```
 */
import { FINAL_STATUSES, type TaskStatus } from '../stores/task.js'
import { EXIT } from './exit-codes.js'

/** A command's end with a message for stderr and an exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message)
  }
}

/** The service answered with its error object (or something that is not one). */
export class ServiceError extends CliError {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`, exitCodeOfError(status, code))
  }
}

function exitCodeOfError(status: number, code: string): number {
  if (status === 401 || status === 403) return EXIT.UNREACHABLE
  if (code === 'VALIDATION_ERROR') return EXIT.USAGE
  return EXIT.REFUSED
}

export interface SseEvent {
  id: number
  event: string
  data: Record<string, unknown>
}

export interface ClientOptions {
  url: string
  key?: string | undefined
  /** Per request, not for event streams (default 120 s: an ingest of large documents embeds them all). */
  timeoutMs?: number
  /** A stream that sends nothing, not even its keep-alive comment, this long is dropped and resumed (default 45 s). */
  idleMs?: number
  /** Reconnections in a row without an event before the service counts as unreachable (default 10). */
  maxReconnects?: number
}

/** One event of an SSE stream may not exceed this; a stream that tries is dropped. */
const MAX_EVENT_BYTES = 4 * 1024 * 1024
const MAX_ERROR_BODY = 64 * 1024

export class ApiClient {
  readonly url: string
  private readonly key: string | undefined
  private readonly timeoutMs: number
  private readonly idleMs: number
  private readonly maxReconnects: number

  constructor(opts: ClientOptions) {
    this.url = opts.url.endsWith('/') ? opts.url.slice(0, -1) : opts.url
    this.key = opts.key
    this.timeoutMs = opts.timeoutMs ?? 120_000
    this.idleMs = opts.idleMs ?? 45_000
    this.maxReconnects = opts.maxReconnects ?? 10
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { ...(this.key !== undefined && { authorization: `Bearer ${this.key}` }), ...extra }
  }

  /** A JSON request; the parsed body of a 2xx answer (undefined for a 204), a ServiceError for any other. */
  async request<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> {
    let res: Response
    try {
      res = await fetch(`${this.url}${path}`, {
        method,
        headers: this.headers(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(body !== undefined && { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(this.timeoutMs),
      })
    } catch (err) {
      throw this.unreachable(err)
    }
    if (!res.ok) throw await errorOf(res)
    if (res.status === 204) return undefined as T
    try {
      return (await res.json()) as T
    } catch (err) {
      throw this.unreachable(err)
    }
  }

  private unreachable(err: unknown): CliError {
    const cause = err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err)
    return new CliError(`cannot reach the service at ${this.url}: ${cause}`, EXIT.UNREACHABLE)
  }

  /**
   * Follows a task's events from after `lastId` until the one that makes it final, and returns that
   * status. A dropped or idle stream is resumed after the last event received; `maxReconnects`
   * attempts in a row that bring no event end it as unreachable. Resolves `undefined` when `signal` aborts.
   */
  async follow(taskId: string, onEvent: (e: SseEvent) => void, signal: AbortSignal, lastId = 0): Promise<TaskStatus | undefined> {
    let failures = 0
    let retryMs = 1000
    let lastError: unknown = new Error('the event stream ended before the task did')
    while (!signal.aborted) {
      const idle = new AbortController()
      let timer = setTimeout(() => idle.abort(), this.idleMs)
      const alive = () => {
        clearTimeout(timer)
        timer = setTimeout(() => idle.abort(), this.idleMs)
      }
      try {
        const res = await fetch(`${this.url}/api/v1/tasks/${encodeURIComponent(taskId)}/events`, {
          headers: this.headers({ accept: 'text/event-stream', ...(lastId > 0 && { 'last-event-id': String(lastId) }) }),
          signal: AbortSignal.any([signal, idle.signal]),
        })
        // A gateway between us and a restarting service: worth another try; any other refusal is final.
        if (!res.ok && ![502, 503, 504].includes(res.status)) throw await errorOf(res)
        if (!res.ok || res.body === null) throw new Error(`the event stream answered ${res.status}`)
        for await (const block of sseBlocks(res.body, alive)) {
          if (block.retry !== undefined) retryMs = Math.min(block.retry, 30_000)
          if (block.data === undefined) continue
          const id = Number(block.id)
          if (Number.isSafeInteger(id) && id > 0) lastId = id
          failures = 0
          const data = parseData(block.data)
          onEvent({ id: lastId, event: block.event ?? 'message', data })
          const status = data.status
          if (block.event === 'task.status' && FINAL_STATUSES.includes(status as TaskStatus)) return status as TaskStatus
        }
      } catch (err) {
        if (err instanceof CliError) throw err
        lastError = err
      } finally {
        clearTimeout(timer)
      }
      if (signal.aborted) break
      failures++
      if (failures > this.maxReconnects) throw this.unreachable(lastError)
      await sleep(Math.min(retryMs * failures, 10_000), signal)
    }
    return undefined
  }
}

/** The service's error object as a ServiceError; a body that is not one keeps the HTTP status. */
async function errorOf(res: Response): Promise<ServiceError> {
  const text = await res.text().catch(() => '')
  try {
    const { error } = JSON.parse(text.slice(0, MAX_ERROR_BODY)) as { error?: { code?: unknown; message?: unknown } }
    if (typeof error?.code === 'string' && typeof error.message === 'string') return new ServiceError(res.status, error.code, error.message)
  } catch {
    // not JSON: described by its status below
  }
  return new ServiceError(res.status, `HTTP_${res.status}`, res.statusText || 'the service answered with an error')
}

function parseData(text: string): Record<string, unknown> {
  try {
    const data = JSON.parse(text) as unknown
    if (data !== null && typeof data === 'object' && !Array.isArray(data)) return data as Record<string, unknown>
  } catch {
    // an event whose data is not a JSON object is passed on as text
  }
  return { text }
}

interface SseBlock {
  id?: string
  event?: string
  data?: string
  retry?: number
}

/**
 * The blocks of an event stream (the WHATWG EventSource rules: `field: value` lines, a blank line
 * ends a block, `:` starts a comment, data lines join with a newline). `alive` is called on every
 * chunk received, keep-alive comments included.
 */
export async function* sseBlocks(body: ReadableStream<Uint8Array>, alive: () => void = () => {}): AsyncGenerator<SseBlock> {
  const decoder = new TextDecoder()
  let pending = ''
  let block: SseBlock = {}
  for await (const chunk of body) {
    alive()
    pending += decoder.decode(chunk, { stream: true })
    if (pending.length > MAX_EVENT_BYTES) throw new Error('an event of the stream is too large')
    let end = pending.indexOf('\n')
    while (end >= 0) {
      const line = pending.slice(0, end).endsWith('\r') ? pending.slice(0, end - 1) : pending.slice(0, end)
      pending = pending.slice(end + 1)
      if (line === '') {
        if (block.data !== undefined || block.retry !== undefined) yield block
        block = {}
      } else if (!line.startsWith(':')) {
        const colon = line.indexOf(':')
        const field = colon < 0 ? line : line.slice(0, colon)
        const value = colon < 0 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1))
        if (field === 'data') block.data = block.data === undefined ? value : `${block.data}\n${value}`
        else if (field === 'id') block.id = value
        else if (field === 'event') block.event = value
        else if (field === 'retry' && /^\d{1,9}$/.test(value)) block.retry = Number(value)
      }
      end = pending.indexOf('\n')
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done, { once: true })
  })
}
