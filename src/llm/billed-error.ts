/**
 * An `LlmError` for a request that failed after the model had already worked on it: output that
 * does not parse, a stream cut halfway. The provider bills those tokens, so the budget layer
 * charges them too (`usageOf`).
 *
 * ```ts
 * throw new BilledLlmError('LLM_BAD_OUTPUT', 'reply is not JSON', { prompt: 120, completion: 40 }, 'gpt-4o-mini', true)
 * usageOf(err) // { prompt: 120, completion: 40 }, or undefined for an error that cost nothing
 * ```
 */
import { type FixedCode, type LlmCode, retryableOf } from '../step-errors.js'
import { LlmError, type Usage } from './provider.js'

export class BilledLlmError extends LlmError {
  /** The model that answered, when known. */
  readonly model: string | undefined

  constructor(code: LlmCode & FixedCode, message: string, usage: Usage, model?: string)
  constructor(code: LlmCode, message: string, usage: Usage, model: string | undefined, retryable: boolean)
  constructor(
    code: LlmCode,
    message: string,
    readonly usage: Usage,
    model?: string,
    retryable = retryableOf(code),
  ) {
    super(code, message, retryable)
    this.name = 'LlmError'
    this.model = model
  }
}

/** What a failed request cost, when the failure knows. */
export function usageOf(error: unknown): Usage | undefined {
  return error instanceof BilledLlmError ? error.usage : undefined
}
