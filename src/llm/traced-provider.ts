/**
 * A span per model call while tracing is on (docs/observability.md): `chat <model>`, a client span
 * with the GenAI attributes (provider, model asked and model that answered, token counts, finish
 * reason). Nothing of the messages or the reply is recorded: they may hold personal data. The HTTP
 * providers send the span's `traceparent` with the request (provider-request.ts). Off, each call
 * passes through after one check.
 *
 * ```ts
 * const llm = new TracedProvider(new RedactingProvider(new OpenAiProvider(options), redact))
 * ```
 */
import { type Attributes, context, trace } from '@opentelemetry/api'
import { failSpan, inSpan, SpanKind, startSpan, tracingOn } from '../telemetry/tracing.js'
import { ForwardingProvider } from './forwarding-provider.js'
import type { Completion, CompletionChunk, CompletionRequest } from './provider.js'

export class TracedProvider extends ForwardingProvider {
  complete(request: CompletionRequest, signal?: AbortSignal): Promise<Completion> {
    if (!tracingOn()) return this.inner.complete(request, signal)
    return inSpan(
      `chat ${this.inner.model}`,
      { kind: SpanKind.CLIENT, attributes: this.requestAttributes(request) },
      undefined,
      async (span) => {
        const done = await this.inner.complete(request, signal)
        span?.setAttributes(completionAttributes(done))
        return done
      },
    )
  }

  stream(request: CompletionRequest, signal?: AbortSignal): AsyncIterable<CompletionChunk> {
    if (!tracingOn()) return this.inner.stream(request, signal)
    return this.tracedStream(request, signal)
  }

  private async *tracedStream(request: CompletionRequest, signal?: AbortSignal): AsyncGenerator<CompletionChunk> {
    const span = startSpan(`chat ${this.inner.model}`, {
      kind: SpanKind.CLIENT,
      attributes: { ...this.requestAttributes(request), 'gen_ai.request.stream': true },
    })
    const active = trace.setSpan(context.active(), span)
    // Each step of the inner stream runs with the span active, so its request carries the span's traceparent.
    const chunks = context.with(active, () => this.inner.stream(request, signal)[Symbol.asyncIterator]())
    try {
      for (;;) {
        const next = await context.with(active, () => chunks.next())
        if (next.done) break
        if (next.value.type === 'done') span.setAttributes(completionAttributes(next.value.completion))
        yield next.value
      }
    } catch (err) {
      failSpan(span, err)
      throw err
    } finally {
      span.end()
    }
  }

  private requestAttributes(request: CompletionRequest): Attributes {
    return {
      'gen_ai.operation.name': 'chat',
      'gen_ai.system': this.inner.provider,
      'gen_ai.request.model': this.inner.model,
      ...(typeof request.maxTokens === 'number' && { 'gen_ai.request.max_tokens': request.maxTokens }),
      ...(request.schema !== undefined && { 'gen_ai.output.type': 'json' }),
    }
  }
}

function completionAttributes(done: Completion): Attributes {
  return {
    'gen_ai.response.model': done.model,
    'gen_ai.usage.input_tokens': done.usage.prompt,
    'gen_ai.usage.output_tokens': done.usage.completion,
    'gen_ai.response.finish_reasons': [done.finishReason],
  }
}
