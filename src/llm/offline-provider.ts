/**
 * The provider that needs nothing: no network, no model file. It answers with the most
 * informative sentences of the last user message (extractive, deterministic), which is enough
 * for summaries and echoes and keeps every code path that calls a model runnable offline.
 *
 * ```ts
 * const llm = new OfflineProvider()
 * const done = await llm.complete({ messages: [{ role: 'user', content: report }], maxTokens: 60 })
 * done.text   // the report's top sentences, in their original order, within 60 estimated tokens
 * done.usage  // estimated with tokens.ts, so budgets hold for it too
 * ```
 *
 * `reasoning` is false: arms use their deterministic paths instead of asking it to plan or judge,
 * and a request with a `schema` is refused (`LLM_UNSUPPORTED`) rather than answered with
 * something that merely looks like JSON.
 *
 * Ranking: each content word (three letters or more, not a stop word) scores its frequency in the
 * message; a sentence scores the sum over its distinct content words divided by the square root
 * of their count (so long sentences do not win by length alone); ties go to the earlier sentence.
 */
import { sentenceBreaks, spaceRuns } from '../text-scan.js'
import { checkRequest } from './check-request.js'
import type { Completion, CompletionChunk, CompletionRequest, LlmProvider } from './provider.js'
import { LlmError } from './provider.js'
import { estimatePromptTokens, estimateTokens } from './tokens.js'

export interface OfflineProviderOptions {
  /** Sentences kept at most. */
  maxSentences?: number
  /** Completion tokens when a request sets no `maxTokens`. */
  defaultMaxTokens?: number
}

export const OFFLINE_DEFAULTS = { maxSentences: 3, defaultMaxTokens: 256 } as const

const STOP_WORDS = new Set(
  'the and for are but not you all any can had her was one our out has him his how its may new now see two who did get let say she too use that with have this will your from they been were what when which their there would about into than them then these some could other more also only just very such each most over like'.split(
    ' ',
  ),
)
/**
 * A sentence ends at . ! or ? (and up to three closing quotes or brackets) before white space, or at
 * a line break: not inside `a@b.com` or `3.5`.
 */
export function sentencesOf(text: string): string[] {
  const breaks = new Set(sentenceBreaks(text, '.!?').map((b) => b.index))
  const out: string[] = []
  let from = 0
  for (const run of spaceRuns(text)) {
    if (!breaks.has(run.index) && !text.slice(run.index, run.index + run.length).includes('\n')) continue
    out.push(text.slice(from, run.index))
    from = run.index + run.length
  }
  out.push(text.slice(from))
  return out
}
const WORD = /[\p{L}\p{N}]+/gu

export class OfflineProvider implements LlmProvider {
  readonly provider = 'offline' as const
  readonly model = 'offline-extractive'
  readonly reasoning = false
  readonly remote = false

  constructor(private readonly options: OfflineProviderOptions = {}) {}

  async complete(request: CompletionRequest, signal?: AbortSignal): Promise<Completion> {
    checkRequest(request)
    if (request.schema !== undefined)
      throw new LlmError('LLM_UNSUPPORTED', 'the offline provider cannot produce structured output; configure LLM_PROVIDER for a model')
    if (signal?.aborted) throw new LlmError('LLM_ABORTED', 'offline: request aborted')
    const source = [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? ''
    const limit = request.maxTokens ?? this.options.defaultMaxTokens ?? OFFLINE_DEFAULTS.defaultMaxTokens
    let { text, cut } = extract(source, this.options.maxSentences ?? OFFLINE_DEFAULTS.maxSentences, limit)
    for (const stop of request.stop ?? []) {
      const at = text.indexOf(stop)
      if (at >= 0) text = text.slice(0, at)
    }
    return {
      text,
      usage: { prompt: estimatePromptTokens(request.messages), completion: estimateTokens(text) },
      model: this.model,
      finishReason: cut ? 'length' : 'stop',
    }
  }

  async *stream(request: CompletionRequest, signal?: AbortSignal): AsyncGenerator<CompletionChunk> {
    const completion = await this.complete(request, signal)
    for (const piece of pieces(completion.text, 4)) {
      if (signal?.aborted) throw new LlmError('LLM_ABORTED', 'offline: request aborted')
      yield { type: 'delta', text: piece }
    }
    yield { type: 'done', completion }
  }

  async check(): Promise<{ ok: boolean; detail?: string }> {
    return { ok: true, detail: 'offline extractive provider' }
  }
}

/** The top sentences of `source`, in their order, within `maxTokens`; `cut` when the cap removed any. */
export function extract(source: string, maxSentences: number, maxTokens: number): { text: string; cut: boolean } {
  const sentences = sentencesOf(source)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => s !== '')
  if (sentences.length === 0) return { text: '', cut: false }

  const frequency = new Map<string, number>()
  const termsOf = sentences.map((s) => {
    const terms = new Set([...s.toLowerCase().matchAll(WORD)].map(([w]) => w).filter((w) => w.length >= 3 && !STOP_WORDS.has(w)))
    for (const term of terms) frequency.set(term, (frequency.get(term) ?? 0) + 1)
    return terms
  })
  const score = termsOf.map((terms) => {
    let sum = 0
    for (const term of terms) sum += frequency.get(term) ?? 0
    return terms.size === 0 ? 0 : sum / Math.sqrt(terms.size)
  })
  const ranked = sentences.map((_, i) => i).sort((a, b) => (score[b] ?? 0) - (score[a] ?? 0) || a - b)

  const chosen: number[] = []
  let tokens = 0
  let cut = false
  for (const i of ranked) {
    if (chosen.length >= maxSentences) break
    const cost = estimateTokens(sentences[i] ?? '')
    if (tokens + cost > maxTokens) {
      cut = true
      continue
    }
    chosen.push(i)
    tokens += cost
  }
  if (chosen.length === 0) {
    // not even the best sentence fits: its first words, within the cap
    const words = (sentences[ranked[0] ?? 0] ?? '').split(' ')
    let text = ''
    for (const word of words) {
      const next = text === '' ? word : `${text} ${word}`
      if (estimateTokens(next) > maxTokens) break
      text = next
    }
    return { text, cut: true }
  }
  return {
    text: chosen
      .sort((a, b) => a - b)
      .map((i) => sentences[i])
      .join(' '),
    cut,
  }
}

/** `text` in about `count` pieces, split after spaces, that join back to `text`. */
function pieces(text: string, count: number): string[] {
  const words = text.split(' ').map((word, i, all) => (i < all.length - 1 ? `${word} ` : word))
  if (words.length > 1 && words[words.length - 1] === '') words.pop()
  const size = Math.max(1, Math.ceil(words.length / count))
  const out: string[] = []
  for (let i = 0; i < words.length; i += size) out.push(words.slice(i, i + size).join(''))
  return out.filter((p) => p !== '')
}
