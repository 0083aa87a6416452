/**
 * A cheap, deterministic token estimate, for budgets and for providers that report no usage
 * (the offline provider, some local servers). It errs high rather than low: a budget that
 * reserves by it should rarely be overrun by what the provider then reports.
 *
 * ```ts
 * estimateTokens('Summarise the incident report.') // 9: summ·aris·e, the, inci·dent, repo·rt, '.'
 * estimatePromptTokens([{ role: 'user', content: 'Hi' }]) // 1 + 4 per message + 3 for the reply's priming
 * ```
 *
 * The rule: a run of letters, digits and combining marks counts one token per started 4
 * characters (BPE vocabularies average about 4 characters of English per token, and give long or
 * rare words several); each Han, kana or Hangul character counts one; every other non-space
 * character (punctuation, symbols, emoji) counts one; white space counts nothing.
 */
import type { ChatMessage } from './provider.js'

const PIECE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[\p{L}\p{N}\p{M}]+|\S/gu

/** Chat formatting costs a few tokens per message (role markers, separators) on every provider. */
export const TOKENS_PER_MESSAGE = 4
/** The assistant turn's opening markers. */
export const TOKENS_PER_REPLY = 3

export function estimateTokens(text: string): number {
  let tokens = 0
  for (const [piece] of text.matchAll(PIECE)) tokens += Math.ceil(piece.length / 4) // a single character (or surrogate pair) is 1
  return tokens
}

/** The estimate of a request's prompt: its messages, with the per-message overhead. */
export function estimatePromptTokens(messages: readonly ChatMessage[]): number {
  let tokens = TOKENS_PER_REPLY
  for (const message of messages) tokens += TOKENS_PER_MESSAGE + estimateTokens(message.content)
  return tokens
}
