/**
 * The checks every provider makes on a `CompletionRequest` before spending anything on it, so a
 * bad request is the same `LLM_BAD_REQUEST` whichever provider is configured.
 *
 * ```ts
 * checkRequest({ messages: [], maxTokens: 0 }) // throws LlmError('LLM_BAD_REQUEST', 'messages: must not be empty')
 * ```
 */
import { type CompletionRequest, LlmError } from './provider.js'

const ROLES = new Set(['system', 'user', 'assistant'])
/** OpenAI's rule for a response_format / tool name; Anthropic's tool names allow the same. */
const SCHEMA_NAME = /^[A-Za-z0-9_-]{1,64}$/

export function checkRequest(request: CompletionRequest): void {
  const bad = (message: string): never => {
    throw new LlmError('LLM_BAD_REQUEST', message)
  }
  if (!Array.isArray(request.messages)) bad('messages: must be an array')
  if (request.messages.length === 0) bad('messages: must not be empty')
  request.messages.forEach((m, i) => {
    if (!ROLES.has(m?.role)) bad(`messages[${i}].role: must be system, user or assistant`)
    if (typeof m.content !== 'string') bad(`messages[${i}].content: must be a string`)
  })
  if (request.maxTokens !== undefined && !(Number.isSafeInteger(request.maxTokens) && request.maxTokens > 0))
    bad('maxTokens: must be a positive integer')
  if (request.temperature !== undefined && !(Number.isFinite(request.temperature) && request.temperature >= 0 && request.temperature <= 2))
    bad('temperature: must be between 0 and 2')
  if (request.stop !== undefined && !(Array.isArray(request.stop) && request.stop.every((s) => typeof s === 'string' && s.length > 0)))
    bad('stop: must be non-empty strings')
  if (request.schema !== undefined) {
    if (!SCHEMA_NAME.test(request.schema.name ?? '')) bad('schema.name: must be 1-64 letters, digits, _ or -')
    const schema: unknown = request.schema.schema
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) bad('schema.schema: must be a JSON Schema object')
  }
}
