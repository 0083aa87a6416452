/**
 * The `MeteredLlm` an arm gets for one call: every request is held to the call's token allowance
 * and what it cost is counted for the result's provenance.
 *
 * ```ts
 * const llm = new BudgetedLlm(provider, request.budget.max_tokens) // null: no limit, still counted
 * await llm.complete({ messages, maxTokens: 500 }, ctx.signal)    // may be sent with a lower max_tokens
 * llm.usage      // { prompt: 212, completion: 180 }, as the provider reported
 * llm.modelsUsed // ['openai/gpt-4o-mini-2024-07-18']
 * ```
 *
 * Before a request it reserves the estimated prompt plus the completion cap it will send:
 * min(request.maxTokens ?? defaultMaxTokens, what is left after the prompt). When nothing is
 * left for a completion the request is refused (`LLM_BUDGET_EXCEEDED`, not retryable) without
 * reaching the model. After the reply the reservation is released and the real usage charged.
 * Reservations are taken synchronously, so requests running concurrently each hold their own and
 * cannot together send caps beyond the allowance. A failed request that reports usage (output
 * that did not parse, a stream cut halfway) is charged too; a stream the consumer leaves early is
 * charged the estimate of the prompt and of the text it had received.
 *
 * The estimate of the prompt errs high (tokens.ts); a provider that counts more than estimated
 * can still take the total slightly past the allowance, after which every request is refused.
 *
 * A structured request whose reply is unusable (`LLM_BAD_OUTPUT`, retryable: not JSON, not the
 * schema, cut off at the token limit) is sent once more, with a short instruction saying what was
 * wrong, before the error reaches the arm; the second request is held and charged like the first.
 * Streams are not sent again: their text has already gone to the consumer.
 */
import { usageOf } from './billed-error.js'
import { checkRequest } from './check-request.js'
import type { Completion, CompletionChunk, CompletionRequest, Llm, MeteredLlm, Usage } from './provider.js'
import { LlmError } from './provider.js'
import { estimatePromptTokens, estimateTokens } from './tokens.js'

export interface BudgetedLlmOptions {
  /** The completion cap sent when a request names none and a budget applies. */
  defaultMaxTokens?: number
}

export const BUDGET_DEFAULTS = { defaultMaxTokens: 1024 } as const

interface Hold {
  tokens: number
  request: CompletionRequest
}

export class BudgetedLlm implements MeteredLlm {
  private readonly spent: Usage = { prompt: 0, completion: 0 }
  private readonly models: string[] = []
  private held = 0

  constructor(
    private readonly llm: Llm,
    /** The call's allowance in tokens (prompt + completion); null for none. */
    readonly maxTokens: number | null,
    private readonly options: BudgetedLlmOptions = {},
  ) {
    if (maxTokens !== null && !(Number.isSafeInteger(maxTokens) && maxTokens >= 0))
      throw new RangeError('maxTokens must be a non-negative integer or null')
  }

  get provider(): Llm['provider'] {
    return this.llm.provider
  }

  get model(): string {
    return this.llm.model
  }

  get reasoning(): boolean {
    return this.llm.reasoning
  }

  get usage(): Usage {
    return { ...this.spent }
  }

  get modelsUsed(): readonly string[] {
    return [...this.models]
  }

  /** Tokens still free: the allowance less what was spent and what running requests hold; null without a limit. */
  get remaining(): number | null {
    if (this.maxTokens === null) return null
    return Math.max(0, this.maxTokens - this.spent.prompt - this.spent.completion - this.held)
  }

  async complete(request: CompletionRequest, signal?: AbortSignal): Promise<Completion> {
    try {
      return await this.completeOnce(request, signal)
    } catch (err) {
      if (!unusableStructuredReply(request, err) || signal?.aborted) throw err
      return this.completeOnce(corrected(request, err as LlmError), signal)
    }
  }

  private async completeOnce(request: CompletionRequest, signal?: AbortSignal): Promise<Completion> {
    const hold = this.reserve(request)
    try {
      const completion = await this.llm.complete(hold.request, signal)
      this.charge(completion.usage, completion.model)
      return completion
    } catch (err) {
      this.chargeFailure(err)
      throw err
    } finally {
      this.held -= hold.tokens
    }
  }

  async *stream(request: CompletionRequest, signal?: AbortSignal): AsyncGenerator<CompletionChunk> {
    const hold = this.reserve(request)
    let settled = false
    let received = ''
    try {
      for await (const chunk of this.llm.stream(hold.request, signal)) {
        if (chunk.type === 'done') {
          this.charge(chunk.completion.usage, chunk.completion.model)
          settled = true
        } else received += chunk.text
        yield chunk
      }
    } catch (err) {
      if (!settled) this.chargeFailure(err)
      settled = true
      throw err
    } finally {
      this.held -= hold.tokens
      // left early by the consumer: the provider still generated what was received
      if (!settled && received !== '')
        this.charge({ prompt: estimatePromptTokens(hold.request.messages), completion: estimateTokens(received) }, this.llm.model)
    }
  }

  private reserve(request: CompletionRequest): Hold {
    checkRequest(request)
    const remaining = this.remaining
    if (remaining === null) return { tokens: 0, request }
    const prompt = estimatePromptTokens(request.messages)
    const cap = Math.min(request.maxTokens ?? this.options.defaultMaxTokens ?? BUDGET_DEFAULTS.defaultMaxTokens, remaining - prompt)
    if (cap < 1) {
      throw new LlmError(
        'LLM_BUDGET_EXCEEDED',
        `token budget exhausted: ${remaining} of ${this.maxTokens} tokens left, the prompt alone needs about ${prompt}`,
      )
    }
    this.held += prompt + cap
    return { tokens: prompt + cap, request: { ...request, maxTokens: cap } }
  }

  private charge(usage: Usage, model: string): void {
    this.spent.prompt += usage.prompt
    this.spent.completion += usage.completion
    const name = `${this.llm.provider}/${model}`
    if (!this.models.includes(name)) this.models.push(name)
  }

  private chargeFailure(err: unknown): void {
    const usage = usageOf(err)
    if (usage !== undefined) this.charge(usage, (err as { model?: string }).model ?? this.llm.model)
  }
}

/** A structured reply another sample may get right: the model answered, but not in shape. */
function unusableStructuredReply(request: CompletionRequest, err: unknown): boolean {
  return request.schema !== undefined && err instanceof LlmError && err.code === 'LLM_BAD_OUTPUT' && err.retryable
}

/** The request again, told what was wrong with the reply (never the reply itself: it may be long). */
function corrected(request: CompletionRequest, err: LlmError): CompletionRequest {
  const name = request.schema?.name ?? 'the schema'
  const correction = `Your last reply could not be used (${err.message.slice(0, 300)}). Answer again with only the JSON value for '${name}': no code fence, no text before or after it, short enough to finish.`
  return { ...request, messages: [...request.messages, { role: 'user', content: correction }] }
}
