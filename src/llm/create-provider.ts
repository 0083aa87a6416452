/**
 * Picks and builds the model provider from configuration; the one place that knows all four.
 * Remote providers come back wrapped in the redaction layer, local ones as they are.
 *
 * ```ts
 * const detector = new Detector()
 * const llm = createLlmProvider(
 *   { provider: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5:7b' },
 *   { redact: (text) => detector.redact(text).redacted_text },
 * )
 * ```
 *
 * Checks, all reported at once as `LLM_NOT_CONFIGURED`: anthropic needs an API key, llama a model
 * path (to an existing file); a base URL must be http(s); the timeout and context size positive
 * integers. OpenAI
 * without a key is allowed: local servers (Ollama, vLLM, llama.cpp) need none.
 */

import { tracingOn } from '../telemetry/tracing.js'
import { ANTHROPIC_DEFAULTS, AnthropicProvider } from './anthropic-provider.js'
import { LlamaProvider } from './llama-provider.js'
import { OfflineProvider } from './offline-provider.js'
import { OPENAI_DEFAULTS, OpenAiProvider } from './openai-provider.js'
import { LlmError, type LlmProvider, type LlmProviderId } from './provider.js'
import { type Redact, RedactingProvider } from './redacting-provider.js'
import { TracedProvider } from './traced-provider.js'

export interface LlmProviderOptions {
  provider: LlmProviderId
  /** OpenAI-compatible: the `/v1` root; Anthropic: the API root. */
  baseUrl?: string
  apiKey?: string
  /** Default per provider: `DEFAULT_MODELS`. */
  model?: string
  /** llama: the .gguf file. */
  modelPath?: string
  /** One model request, in milliseconds. */
  timeoutMs?: number
  /** openai: the model `embed()` uses. */
  embeddingModel?: string
  /** llama: context size in tokens. */
  contextSize?: number
  /** openai: `max_completion_tokens` for OpenAI's reasoning models; `max_tokens` (default) elsewhere. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens'
}

export interface LlmProviderDeps {
  /** Personal data out of text bound for a remote provider (the addon's placeholder redaction). */
  redact: Redact
}

export const DEFAULT_MODELS = {
  offline: 'offline-extractive',
  openai: OPENAI_DEFAULTS.model,
  anthropic: ANTHROPIC_DEFAULTS.model,
  llama: '(the model file name)',
} as const satisfies Record<LlmProviderId, string>

export const DEFAULT_LLM_TIMEOUT_MS = 120_000

/**
 * The configured provider; with tracing on when it is made (the services start tracing first), a
 * span per model call (traced-provider.ts).
 */
export function createLlmProvider(options: LlmProviderOptions, deps: LlmProviderDeps): LlmProvider {
  const provider = createProvider(options, deps)
  return tracingOn() ? new TracedProvider(provider) : provider
}

function createProvider(options: LlmProviderOptions, deps: LlmProviderDeps): LlmProvider {
  const problems: string[] = []
  const { provider, baseUrl, apiKey, model, modelPath, timeoutMs = DEFAULT_LLM_TIMEOUT_MS } = options
  if (!['offline', 'openai', 'anthropic', 'llama'].includes(provider))
    problems.push(`provider: must be offline, openai, anthropic or llama (got '${String(provider)}')`)
  if (baseUrl !== undefined && !isHttpUrl(baseUrl)) problems.push('baseUrl: must be an http(s) URL')
  if (!(Number.isSafeInteger(timeoutMs) && timeoutMs > 0)) problems.push('timeoutMs: must be a positive integer')
  if (model !== undefined && model.trim() === '') problems.push('model: must not be empty')
  if (options.maxTokensField !== undefined && !['max_tokens', 'max_completion_tokens'].includes(options.maxTokensField))
    problems.push('maxTokensField: must be max_tokens or max_completion_tokens')
  if (options.contextSize !== undefined && !(Number.isSafeInteger(options.contextSize) && options.contextSize > 0))
    problems.push('contextSize: must be a positive integer')
  if (provider === 'anthropic' && !apiKey) problems.push('apiKey: the anthropic provider needs an API key (LLM_API_KEY)')
  if (provider === 'llama' && !modelPath) problems.push('modelPath: the llama provider needs a .gguf file (LLM_MODEL_PATH)')
  if (problems.length > 0) throw new LlmError('LLM_NOT_CONFIGURED', `LLM configuration: ${problems.join('; ')}`)

  switch (provider) {
    case 'offline':
      return new OfflineProvider()
    case 'llama':
      return new LlamaProvider({
        modelPath: modelPath as string,
        ...(options.contextSize === undefined ? {} : { contextSize: options.contextSize }),
      })
    case 'openai':
      return new RedactingProvider(
        new OpenAiProvider(
          defined({ baseUrl, apiKey, model, timeoutMs, embeddingModel: options.embeddingModel, maxTokensField: options.maxTokensField }),
        ),
        deps.redact,
      )
    case 'anthropic':
      return new RedactingProvider(
        new AnthropicProvider({ apiKey: apiKey as string, ...defined({ baseUrl, model, timeoutMs }) }),
        deps.redact,
      )
  }
}

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text)
    return protocol === 'http:' || protocol === 'https:'
  } catch {
    return false
  }
}

/** The options without their undefined entries, so the providers' defaults apply. */
function defined<T extends Record<string, unknown>>(options: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> }
}
