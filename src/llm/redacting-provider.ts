/**
 * Personal data out of every message before it leaves for a remote provider: each message's
 * content (and each text to embed) goes through `redact` first. The application passes the reflex
 * addon's placeholder redaction, so `ada@example.com` reaches the model as `[EMAIL_1]`.
 *
 * ```ts
 * const detector = new Detector()
 * const llm = new RedactingProvider(new OpenAiProvider({ apiKey }), (text) => detector.redact(text).redacted_text)
 * ```
 *
 * Replies are not un-redacted: the placeholders stay in what the model wrote, and the arms work
 * with placeholders throughout (the goal and actions they get are already redacted).
 * Local providers (offline, in-process GGUF) are not wrapped: nothing leaves the process, and
 * redaction would only cost the model the details a local task may need. The JSON Schema of a
 * structured request is the application's own text and passes unchanged.
 */
import { ForwardingProvider } from './forwarding-provider.js'
import type { Completion, CompletionChunk, CompletionRequest, LlmProvider } from './provider.js'

export type Redact = (text: string) => string

export class RedactingProvider extends ForwardingProvider {
  constructor(
    inner: LlmProvider,
    private readonly redact: Redact,
  ) {
    super(inner)
    // only what the inner provider offers: callers test for `embed` before using it
    const { embed } = inner
    if (embed)
      this.embed = (texts, signal) =>
        embed.call(
          inner,
          texts.map((t) => this.redact(t)),
          signal,
        )
  }

  complete(request: CompletionRequest, signal?: AbortSignal): Promise<Completion> {
    return this.inner.complete(this.redacted(request), signal)
  }

  stream(request: CompletionRequest, signal?: AbortSignal): AsyncIterable<CompletionChunk> {
    return this.inner.stream(this.redacted(request), signal)
  }

  private redacted(request: CompletionRequest): CompletionRequest {
    if (!Array.isArray(request.messages)) return request // the provider reports the bad request
    return {
      ...request,
      messages: request.messages.map((m) => ({ ...m, content: typeof m.content === 'string' ? this.redact(m.content) : m.content })),
    }
  }
}
