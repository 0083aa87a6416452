/**
 * An `LlmError` for a request that failed after the model had already worked on it: output that
 * does not parse, a stream cut halfway. The provider bills those tokens, so the budget layer
 * charges them too (`usageOf`).
 *
 * ```ts
 * throw new BilledLlmError('LLM_BAD_OUTPUT', 'reply is not JSON', { prompt: 120, completion: 40 }, 'gpt-4o-mini')
 * usageOf(err) // { prompt: 120, completion: 40 }, or undefined for an error that cost nothing
 * ```
 */
import { LlmError, type Usage } from './provider.js'

export class BilledLlmError extends LlmError {
  constructor(
    code: string,
    message: string,
    readonly usage: Usage,
    /** The model that answered, when known. */
    readonly model?: string,
    retryable = false,
  ) {
    super(code, message, retryable)
    this.name = 'LlmError'
  }
}

/** What a failed request cost, when the failure knows. */
export function usageOf(error: unknown): Usage | undefined {
  return error instanceof BilledLlmError ? error.usage : undefined
}
