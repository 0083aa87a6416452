/**
 * The OpenAI-compatible Chat Completions client: OpenAI itself, and the servers that speak the same
 * protocol (vLLM, Ollama's `/v1`, llama.cpp's `llama-server`, LM Studio…). Plain `fetch`, no SDK.
 *
 * ```ts
 * const llm = new OpenAiProvider({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5:7b' })
 * const done = await llm.complete({ messages: [{ role: 'user', content: 'Say hi' }], maxTokens: 20 }, signal)
 * done.text; done.usage // { prompt: 11, completion: 3 }, as the server counted
 * ```
 *
 * Structured output is `response_format: json_schema` with `strict: true` (OpenAI then requires
 * every property listed in `required` and `additionalProperties: false`); the reply is parsed and
 * validated here as well, since other servers treat the format as a hint. Streams ask for usage
 * (`stream_options.include_usage`); a server that sends none gets the estimate of tokens.ts.
 */
import { BilledLlmError } from './billed-error.js'
import { checkRequest } from './check-request.js'
import type { Completion, CompletionChunk, CompletionRequest, LlmProvider, Usage } from './provider.js'
import { LlmError } from './provider.js'
import { apiMessage, ProviderRequest, trimBase } from './provider-request.js'
import { readSse } from './sse.js'
import { parseStructured, prepareSchema } from './structured-output.js'
import { estimatePromptTokens, estimateTokens } from './tokens.js'

export interface OpenAiProviderOptions {
  /** Default `https://api.openai.com/v1`; a local server's `/v1` root otherwise. */
  baseUrl?: string
  /** Sent as a Bearer token when set; local servers usually need none. */
  apiKey?: string
  model?: string
  /** The model `embed()` asks for. */
  embeddingModel?: string
  /** One request, streams included. */
  timeoutMs?: number
  /** OpenAI's reasoning models take `max_completion_tokens`; the other servers read `max_tokens`. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens'
}

export const OPENAI_DEFAULTS = {
  baseUrl: 'https://api.openai.com/v1',
  model: 'gpt-4o-mini',
  embeddingModel: 'text-embedding-3-small',
  timeoutMs: 120_000,
} as const

/** Health checks should not hang for a whole model timeout. */
const CHECK_TIMEOUT_MS = 10_000

interface ChatChoice {
  message?: { content?: string | null; refusal?: string | null }
  delta?: { content?: string | null }
  finish_reason?: string | null
}
interface ChatBody {
  model?: string
  choices?: ChatChoice[]
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null
  error?: { message?: string } | string
}

export class OpenAiProvider implements LlmProvider {
  readonly provider = 'openai' as const
  readonly remote = true
  readonly reasoning = true
  readonly model: string
  private readonly base: string
  private readonly label: string

  constructor(private readonly options: OpenAiProviderOptions = {}) {
    const { base, host } = trimBase(options.baseUrl ?? OPENAI_DEFAULTS.baseUrl, 'openai')
    this.base = base
    this.model = options.model ?? OPENAI_DEFAULTS.model
    this.label = `openai-compatible API at ${host}`
  }

  async complete(request: CompletionRequest, signal?: AbortSignal): Promise<Completion> {
    checkRequest(request)
    prepareSchema(request.schema)
    const call = this.request(signal)
    const response = await call.fetch(`${this.base}/chat/completions`, {
      method: 'POST',
      headers: this.headers(),
      body: this.body(request),
    })
    const body = (await call.json(response)) as ChatBody
    const choice = body.choices?.[0]
    if (choice?.message === undefined) throw new LlmError('LLM_UNAVAILABLE', `${this.label}: the reply has no choices`)
    const text = choice.message.content ?? ''
    const model = body.model ?? this.model
    const usage = readUsage(body.usage) ?? estimated(request, text)
    if (choice.message.refusal)
      throw new BilledLlmError('LLM_BAD_OUTPUT', `the model refused: ${apiMessage(choice.message.refusal)}`, usage, model, false)
    return finish(request, text, usage, model, choice.finish_reason)
  }

  async *stream(request: CompletionRequest, signal?: AbortSignal): AsyncGenerator<CompletionChunk> {
    checkRequest(request)
    prepareSchema(request.schema)
    const call = this.request(signal)
    const body = { ...this.body(request), stream: true, stream_options: { include_usage: true } }
    const response = await call.fetch(`${this.base}/chat/completions`, { method: 'POST', headers: this.headers(), body })
    if (response.body === null) throw new LlmError('LLM_UNAVAILABLE', `${this.label}: empty stream`)

    let text = ''
    let model = this.model
    let finishReason: string | null | undefined
    let usage: Usage | undefined
    let ended = false
    try {
      for await (const { data } of readSse(response.body)) {
        if (data === '[DONE]') {
          ended = true
          break
        }
        const chunk = parseChunk(data, this.label)
        if (chunk.error !== undefined) throw new LlmError('LLM_UNAVAILABLE', `${this.label}: ${apiMessage(JSON.stringify(chunk))}`)
        if (chunk.model) model = chunk.model
        usage = readUsage(chunk.usage) ?? usage
        const choice = chunk.choices?.[0]
        if (choice?.finish_reason) finishReason = choice.finish_reason
        const delta = choice?.delta?.content
        if (typeof delta === 'string' && delta !== '') {
          text += delta
          yield { type: 'delta', text: delta }
        }
      }
    } catch (err) {
      throw billed(call.failure(err), request, text, model)
    }
    // Some servers close without `[DONE]`; a finish reason says the answer was whole all the same.
    if (!ended && !finishReason)
      throw billed(new LlmError('LLM_UNAVAILABLE', `${this.label}: the stream ended early`), request, text, model)
    yield { type: 'done', completion: finish(request, text, usage ?? estimated(request, text), model, finishReason) }
  }

  async embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    if (!Array.isArray(texts) || texts.some((t) => typeof t !== 'string')) throw new LlmError('LLM_BAD_REQUEST', 'texts: must be strings')
    if (texts.length === 0) return []
    const call = this.request(signal)
    const response = await call.fetch(`${this.base}/embeddings`, {
      method: 'POST',
      headers: this.headers(),
      body: { model: this.options.embeddingModel ?? OPENAI_DEFAULTS.embeddingModel, input: texts },
    })
    const body = (await call.json(response)) as { data?: Array<{ index?: number; embedding?: unknown }> }
    const rows = Array.isArray(body.data) ? [...body.data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)) : []
    const vectors = rows.map((r) => r.embedding)
    if (vectors.length !== texts.length || !vectors.every((v) => Array.isArray(v) && v.every((x) => typeof x === 'number')))
      throw new LlmError('LLM_UNAVAILABLE', `${this.label}: expected ${texts.length} embeddings`)
    return vectors as number[][]
  }

  async check(signal?: AbortSignal): Promise<{ ok: boolean; detail?: string }> {
    try {
      const call = new ProviderRequest(this.label, Math.min(CHECK_TIMEOUT_MS, this.timeoutMs()), signal)
      const body = (await call.json(await call.fetch(`${this.base}/models`, { method: 'GET', headers: this.headers() }))) as {
        data?: Array<{ id?: string }>
      }
      const ids = Array.isArray(body.data) ? body.data.map((m) => m.id) : []
      return { ok: true, detail: ids.includes(this.model) ? `${this.model} available` : `${ids.length} models listed` }
    } catch (err) {
      return { ok: false, detail: (err as Error).message }
    }
  }

  private timeoutMs(): number {
    return this.options.timeoutMs ?? OPENAI_DEFAULTS.timeoutMs
  }

  private request(signal: AbortSignal | undefined): ProviderRequest {
    return new ProviderRequest(this.label, this.timeoutMs(), signal)
  }

  private headers(): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`
    return headers
  }

  private body(request: CompletionRequest): Record<string, unknown> {
    const body: Record<string, unknown> = {
      model: this.model,
      messages: request.messages.map(({ role, content }) => ({ role, content })),
    }
    if (request.maxTokens !== undefined) body[this.options.maxTokensField ?? 'max_tokens'] = request.maxTokens
    if (request.temperature !== undefined) body.temperature = request.temperature
    if (request.stop !== undefined && request.stop.length > 0) body.stop = request.stop
    if (request.schema !== undefined)
      body.response_format = {
        type: 'json_schema',
        json_schema: { name: request.schema.name, schema: request.schema.schema, strict: true },
      }
    return body
  }
}

function parseChunk(data: string, label: string): ChatBody {
  try {
    return JSON.parse(data) as ChatBody
  } catch {
    throw new LlmError('LLM_UNAVAILABLE', `${label}: a stream event is not JSON`)
  }
}

function readUsage(usage: ChatBody['usage']): Usage | undefined {
  if (!usage || typeof usage.prompt_tokens !== 'number') return undefined
  return { prompt: usage.prompt_tokens, completion: usage.completion_tokens ?? 0 }
}

function estimated(request: CompletionRequest, text: string): Usage {
  return { prompt: estimatePromptTokens(request.messages), completion: estimateTokens(text) }
}

/** A failure after output arrived was billed: charge the estimate of what was produced. */
function billed(error: LlmError, request: CompletionRequest, text: string, model: string): LlmError {
  if (text === '' || error instanceof BilledLlmError) return error
  return new BilledLlmError(error.code, error.message, estimated(request, text), model, error.retryable)
}

function finish(request: CompletionRequest, text: string, usage: Usage, model: string, reason: string | null | undefined): Completion {
  const finishReason = reason === 'stop' ? 'stop' : reason === 'length' ? 'length' : 'other'
  const completion: Completion = { text, usage, model, finishReason }
  if (request.schema !== undefined) completion.json = parseStructured(text, request.schema, usage, model, finishReason === 'length')
  return completion
}
