/**
 * The Anthropic Messages API client over plain `fetch`: `POST {base}/v1/messages` with `x-api-key`
 * and `anthropic-version: 2023-06-01`.
 *
 * ```ts
 * const llm = new AnthropicProvider({ apiKey, model: 'claude-haiku-4-5' })
 * const plan = await llm.complete({ messages, schema: { name: 'plan', schema: PlanJsonSchema } }, signal)
 * plan.json // the forced tool call's input, validated against the schema
 * ```
 *
 * The API differs from Chat Completions in ways handled here: system messages go in `system`
 * (joined), `max_tokens` is required (1024 unless asked), temperature stops at 1 (higher is
 * clamped), and structured output is a single tool whose `input_schema` is the schema, forced
 * with `tool_choice`. Streams are typed SSE events; an `error` event mid-stream is mapped like an
 * HTTP status (overloaded and rate limits retryable).
 */
import { BilledLlmError } from './billed-error.js'
import { checkRequest } from './check-request.js'
import type { Completion, CompletionChunk, CompletionRequest, LlmProvider, Usage } from './provider.js'
import { LlmError } from './provider.js'
import { apiMessage, ProviderRequest, trimBase } from './provider-request.js'
import { readSse } from './sse.js'
import { checkStructured, parseStructured, prepareSchema } from './structured-output.js'
import { estimatePromptTokens, estimateTokens } from './tokens.js'

export interface AnthropicProviderOptions {
  apiKey: string
  /** Default `https://api.anthropic.com` (without `/v1`). */
  baseUrl?: string
  model?: string
  timeoutMs?: number
  /** `max_tokens` when a request sets none (the API requires one). */
  defaultMaxTokens?: number
}

export const ANTHROPIC_DEFAULTS = {
  baseUrl: 'https://api.anthropic.com',
  model: 'claude-haiku-4-5',
  timeoutMs: 120_000,
  defaultMaxTokens: 1024,
  version: '2023-06-01',
} as const

const CHECK_TIMEOUT_MS = 10_000
/** Anthropic error types worth another attempt. */
const RETRYABLE_ERRORS = new Set(['overloaded_error', 'rate_limit_error', 'api_error', 'timeout_error'])

type ContentBlock = { type: 'text'; text: string } | { type: 'tool_use'; name: string; input: unknown } | { type: string }
interface ApiUsage {
  input_tokens?: number
  output_tokens?: number
  cache_creation_input_tokens?: number | null
  cache_read_input_tokens?: number | null
}
interface MessageBody {
  model?: string
  content?: ContentBlock[]
  stop_reason?: string | null
  usage?: ApiUsage
}

export class AnthropicProvider implements LlmProvider {
  readonly provider = 'anthropic' as const
  readonly remote = true
  readonly reasoning = true
  readonly model: string
  private readonly base: string
  private readonly label: string

  constructor(private readonly options: AnthropicProviderOptions) {
    if (!options.apiKey) throw new LlmError('LLM_NOT_CONFIGURED', 'anthropic: an API key is required (LLM_API_KEY)')
    const { base, host } = trimBase(options.baseUrl ?? ANTHROPIC_DEFAULTS.baseUrl, 'anthropic')
    this.base = base
    this.model = options.model ?? ANTHROPIC_DEFAULTS.model
    this.label = `anthropic API at ${host}`
  }

  async complete(request: CompletionRequest, signal?: AbortSignal): Promise<Completion> {
    checkRequest(request)
    prepareSchema(request.schema)
    const call = this.request(signal)
    const response = await call.fetch(`${this.base}/v1/messages`, { method: 'POST', headers: this.headers(), body: this.body(request) })
    const body = (await call.json(response)) as MessageBody
    if (!Array.isArray(body.content)) throw new LlmError('LLM_UNAVAILABLE', `${this.label}: the reply has no content`)
    const model = body.model ?? this.model
    const text = body.content.flatMap((b) => (b.type === 'text' && 'text' in b ? [b.text] : [])).join('')
    const usage = readUsage(body.usage) ?? { prompt: estimatePromptTokens(request.messages), completion: estimateTokens(text) }
    const completion: Completion = { text, usage, model, finishReason: finishReason(body.stop_reason) }
    if (request.schema !== undefined) {
      const { name } = request.schema
      const tool = body.content.find(
        (b): b is { type: 'tool_use'; name: string; input: unknown } => b.type === 'tool_use' && 'name' in b && b.name === name,
      )
      if (tool === undefined) throw new BilledLlmError('LLM_BAD_OUTPUT', `the reply did not call the '${name}' tool`, usage, model, true)
      completion.text = JSON.stringify(tool.input)
      completion.json = checkStructured(tool.input, request.schema, usage, model)
    }
    return completion
  }

  async *stream(request: CompletionRequest, signal?: AbortSignal): AsyncGenerator<CompletionChunk> {
    checkRequest(request)
    prepareSchema(request.schema)
    const call = this.request(signal)
    const response = await call.fetch(`${this.base}/v1/messages`, {
      method: 'POST',
      headers: this.headers(),
      body: { ...this.body(request), stream: true },
    })
    if (response.body === null) throw new LlmError('LLM_UNAVAILABLE', `${this.label}: empty stream`)

    let model = this.model
    let text = ''
    let json = ''
    let prompt: number | undefined
    let completionTokens: number | undefined
    let stopReason: string | null | undefined
    let stopped = false
    const spent = (): Usage => ({
      prompt: prompt ?? estimatePromptTokens(request.messages),
      completion: completionTokens ?? estimateTokens(text + json),
    })
    try {
      for await (const { event, data } of readSse(response.body)) {
        const payload = parseEvent(data, this.label)
        if (event === 'message_start') {
          const message = payload.message as MessageBody | undefined
          if (message?.model) model = message.model
          prompt = readUsage(message?.usage)?.prompt ?? prompt
        } else if (event === 'content_block_delta') {
          const delta = payload.delta as { type?: string; text?: string; partial_json?: string } | undefined
          const piece = delta?.type === 'text_delta' ? delta.text : delta?.type === 'input_json_delta' ? delta.partial_json : undefined
          if (typeof piece === 'string' && piece !== '') {
            if (delta?.type === 'text_delta') text += piece
            else json += piece
            // with a schema only the tool's JSON is the answer; text around it is not
            if (request.schema === undefined ? delta?.type === 'text_delta' : delta?.type === 'input_json_delta')
              yield { type: 'delta', text: piece }
          }
        } else if (event === 'message_delta') {
          const delta = payload.delta as { stop_reason?: string | null } | undefined
          if (delta?.stop_reason !== undefined) stopReason = delta.stop_reason
          const usage = payload.usage as ApiUsage | undefined
          if (typeof usage?.output_tokens === 'number') completionTokens = usage.output_tokens
          if (typeof usage?.input_tokens === 'number') prompt = readUsage(usage)?.prompt ?? prompt
        } else if (event === 'message_stop') {
          stopped = true
          break
        } else if (event === 'error') {
          const error = payload.error as { type?: string; message?: string } | undefined
          const type = error?.type ?? 'error'
          throw new LlmError(
            RETRYABLE_ERRORS.has(type) ? 'LLM_UNAVAILABLE' : 'LLM_BAD_REQUEST',
            `${this.label}: ${type}: ${apiMessage(error?.message ?? '')}`,
            RETRYABLE_ERRORS.has(type),
          )
        }
      }
    } catch (err) {
      const error = call.failure(err)
      // once the message started, the prompt was billed
      throw prompt === undefined && text === '' && json === ''
        ? error
        : new BilledLlmError(error.code, error.message, spent(), model, error.retryable)
    }
    if (!stopped) throw new BilledLlmError('LLM_UNAVAILABLE', `${this.label}: the stream ended before message_stop`, spent(), model)

    const usage = spent()
    const completion: Completion = { text, usage, model, finishReason: finishReason(stopReason) }
    if (request.schema !== undefined) {
      completion.text = json === '' ? '{}' : json
      completion.json = parseStructured(completion.text, request.schema, usage, model)
    }
    yield { type: 'done', completion }
  }

  async check(signal?: AbortSignal): Promise<{ ok: boolean; detail?: string }> {
    try {
      const call = new ProviderRequest(this.label, Math.min(CHECK_TIMEOUT_MS, this.timeoutMs()), signal)
      await call.json(await call.fetch(`${this.base}/v1/models`, { method: 'GET', headers: this.headers() }))
      return { ok: true }
    } catch (err) {
      return { ok: false, detail: (err as Error).message }
    }
  }

  private timeoutMs(): number {
    return this.options.timeoutMs ?? ANTHROPIC_DEFAULTS.timeoutMs
  }

  private request(signal: AbortSignal | undefined): ProviderRequest {
    return new ProviderRequest(this.label, this.timeoutMs(), signal)
  }

  private headers(): Record<string, string> {
    return {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'x-api-key': this.options.apiKey,
      'anthropic-version': ANTHROPIC_DEFAULTS.version,
    }
  }

  private body(request: CompletionRequest): Record<string, unknown> {
    const system = request.messages.filter((m) => m.role === 'system').map((m) => m.content)
    const body: Record<string, unknown> = {
      model: this.model,
      max_tokens: request.maxTokens ?? this.options.defaultMaxTokens ?? ANTHROPIC_DEFAULTS.defaultMaxTokens,
      messages: request.messages.filter((m) => m.role !== 'system').map(({ role, content }) => ({ role, content })),
    }
    if (system.length > 0) body.system = system.join('\n\n')
    if (request.temperature !== undefined) body.temperature = Math.min(request.temperature, 1)
    if (request.stop !== undefined && request.stop.length > 0) body.stop_sequences = request.stop
    if (request.schema !== undefined) {
      const { name, schema } = request.schema
      body.tools = [{ name, description: `Reply by calling this tool: its input is the answer, as '${name}'.`, input_schema: schema }]
      body.tool_choice = { type: 'tool', name }
    }
    return body
  }
}

function parseEvent(data: string, label: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(data)
    if (typeof value === 'object' && value !== null) return value as Record<string, unknown>
  } catch {
    // reported below
  }
  throw new LlmError('LLM_UNAVAILABLE', `${label}: a stream event is not JSON`)
}

/** Input billed includes what was written to or read from the prompt cache. */
function readUsage(usage: ApiUsage | undefined): Usage | undefined {
  if (typeof usage?.input_tokens !== 'number') return undefined
  const prompt = usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0)
  return { prompt, completion: usage.output_tokens ?? 0 }
}

function finishReason(reason: string | null | undefined): Completion['finishReason'] {
  if (reason === 'end_turn' || reason === 'stop_sequence' || reason === 'tool_use') return 'stop'
  return reason === 'max_tokens' ? 'length' : 'other'
}
