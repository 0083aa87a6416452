/**
 * Model providers behind one interface (docs/llm.md): OpenAI-compatible HTTP, Anthropic Messages,
 * in-process GGUF through node-llama-cpp, and the offline provider that needs nothing.
 *
 * ```ts
 * const done = await llm.complete({ messages: [{ role: 'user', content: 'Summarise: …' }], maxTokens: 200 }, signal)
 * done.text; done.usage // { prompt: 41, completion: 37 }
 * const plan = await llm.complete({ messages, schema: { name: 'plan', schema: PlanJsonSchema } }, signal)
 * plan.json // parsed and validated against the schema, or an LlmError('LLM_BAD_OUTPUT')
 * ```
 *
 * Layers, outermost first, each one file: `BudgetedLlm` (holds a call to the step's token
 * reservation, settles the real usage after), `RedactingProvider` (personal data out of every
 * message before it leaves for a remote provider), then the provider itself.
 *
 * Left out on purpose: tool calling (the arms are the tools), images, and provider-side retries
 * (the step is what is retried, with its backoff, by the orchestrator).
 */

import { type FixedCode, type LlmCode, retryableOf } from '../step-errors.js'

export type LlmProviderId = 'offline' | 'openai' | 'anthropic' | 'llama'

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant'
  content: string
}

export interface CompletionRequest {
  messages: readonly ChatMessage[]
  /** Upper bound on completion tokens; the budget layer may lower it. */
  maxTokens?: number
  temperature?: number
  /** Structured output: the reply must be JSON valid against this JSON Schema. */
  schema?: { name: string; schema: Record<string, unknown> }
  stop?: readonly string[]
}

export interface Usage {
  prompt: number
  completion: number
}

export interface Completion {
  text: string
  /** The parsed reply when `schema` was given. */
  json?: unknown
  usage: Usage
  /** The model that answered, as the provider names it. */
  model: string
  finishReason: 'stop' | 'length' | 'other'
}

export type CompletionChunk = { type: 'delta'; text: string } | { type: 'done'; completion: Completion }

/** What arms call: one model, abortable, with usage on every reply. */
export interface Llm {
  readonly provider: LlmProviderId
  readonly model: string
  /** False for the offline provider: arms then use their deterministic paths instead of asking it to reason. */
  readonly reasoning: boolean
  complete(request: CompletionRequest, signal?: AbortSignal): Promise<Completion>
  /** Text as it is produced; the last chunk is `done` with the whole completion and its usage. */
  stream(request: CompletionRequest, signal?: AbortSignal): AsyncIterable<CompletionChunk>
}

export interface LlmProvider extends Llm {
  /** True when text leaves this process (it is redacted first). */
  readonly remote: boolean
  /** Vectors for the retriever, when the provider has an embeddings endpoint. */
  embed?(texts: readonly string[], signal?: AbortSignal): Promise<number[][]>
  /** Reachability for health checks; never throws. */
  check?(signal?: AbortSignal): Promise<{ ok: boolean; detail?: string }>
  close?(): Promise<void>
}

/**
 * Stable codes, the `LLM_*` of the step error catalogue (src/step-errors.ts, which says whether
 * each is retryable): `LLM_BUDGET_EXCEEDED`, `LLM_UNAVAILABLE` (connection, 5xx, 429),
 * `LLM_BAD_REQUEST` (4xx), `LLM_BAD_OUTPUT` (structured output that does not parse or validate),
 * `LLM_ABORTED`, `LLM_NOT_CONFIGURED`, `LLM_UNSUPPORTED` (the offline provider asked for
 * structured output).
 */
export class LlmError extends Error {
  readonly code: LlmCode
  readonly retryable: boolean

  constructor(code: LlmCode & FixedCode, message: string)
  constructor(code: LlmCode, message: string, retryable: boolean)
  constructor(code: LlmCode, message: string, retryable = retryableOf(code)) {
    super(message)
    this.name = 'LlmError'
    this.code = code
    this.retryable = retryable
  }
}

/**
 * The `Llm` an arm gets for one call (`ArmContext.llm`): held to the call's token allowance, and
 * counting what it spent for the result's provenance. `BudgetedLlm` is the implementation.
 */
export interface MeteredLlm extends Llm {
  /** Tokens spent so far by this call's model requests (failed ones included, as billed). */
  readonly usage: Usage
  /** `provider/model` of each model that answered, in order of first use. */
  readonly modelsUsed: readonly string[]
}
