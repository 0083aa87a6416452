/**
 * A provider that wraps another: it answers for the inner one's identity (provider, model,
 * reasoning, remote) and offers only what the inner one offers (`embed`, `check`, `close`, which
 * callers test for before use). A wrapper overrides `complete` and `stream`, and `embed` if it
 * changes the texts (redacting-provider.ts, traced-provider.ts).
 */
import type { Completion, CompletionChunk, CompletionRequest, LlmProvider } from './provider.js'

export abstract class ForwardingProvider implements LlmProvider {
  embed?: (texts: readonly string[], signal?: AbortSignal) => Promise<number[][]>
  readonly check?: (signal?: AbortSignal) => Promise<{ ok: boolean; detail?: string }>
  readonly close?: () => Promise<void>

  constructor(protected readonly inner: LlmProvider) {
    const { embed, check, close } = inner
    if (embed) this.embed = (texts, signal) => embed.call(inner, texts, signal)
    if (check) this.check = (signal) => check.call(inner, signal)
    if (close) this.close = () => close.call(inner)
  }

  get provider(): LlmProvider['provider'] {
    return this.inner.provider
  }

  get model(): string {
    return this.inner.model
  }

  get reasoning(): boolean {
    return this.inner.reasoning
  }

  get remote(): boolean {
    return this.inner.remote
  }

  abstract complete(request: CompletionRequest, signal?: AbortSignal): Promise<Completion>
  abstract stream(request: CompletionRequest, signal?: AbortSignal): AsyncIterable<CompletionChunk>
}
