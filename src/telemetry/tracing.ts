/**
 * OpenTelemetry tracing (docs/observability.md). Off unless an OTLP endpoint is configured: then
 * the process registers one tracer provider that exports spans by OTLP/HTTP (JSON) through a batch
 * processor, the W3C trace-context propagator and the async-local context manager. Off, every
 * helper here is a check of one boolean: no context is extracted, no span is made, no header added.
 *
 * ```ts
 * const tracing = startTracing({ endpoint: 'http://collector:4318/v1/traces', serviceName: 'ganglion-orchestrator' })
 * await inSpan('task.step', { kind: SpanKind.INTERNAL, attributes }, parentContext, async (span) => { … })
 * await tracing.stop() // flushes what is still queued
 * ```
 *
 * One provider per process: services started together (`npm start`) share it, named by the first.
 */
import {
  type Attributes,
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TimeInput,
  trace,
} from '@opentelemetry/api'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { BatchSpanProcessor, type IdGenerator, RandomIdGenerator } from '@opentelemetry/sdk-trace-base'
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node'
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions'

export type { Attributes, Context, Span }
export { SpanKind, SpanStatusCode }

export interface TracingOptions {
  /** The OTLP/HTTP traces URL (`…/v1/traces`). */
  endpoint: string
  serviceName: string
  serviceVersion?: string
}

export interface Tracing {
  /** Flushes queued spans and, for the last user of the provider, unregisters it. */
  stop(): Promise<void>
}

/**
 * Span ids are random, except the one a caller asks for: a task's span is ended by whichever
 * worker finishes the task, under the id its submission chose (`startSpanWithId`).
 */
class ChosenIdGenerator implements IdGenerator {
  private readonly random = new RandomIdGenerator()
  next: string | undefined
  generateTraceId(): string {
    return this.random.generateTraceId()
  }
  generateSpanId(): string {
    const chosen = this.next
    if (chosen === undefined) return this.random.generateSpanId()
    this.next = undefined
    return chosen
  }
}

let provider: NodeTracerProvider | undefined
let ids: ChosenIdGenerator | undefined
let users = 0
let on = false
const TRACER = 'ganglion'

/** Whether spans are made and exported in this process. */
export function tracingOn(): boolean {
  return on
}

export function startTracing(opts: TracingOptions): Tracing {
  if (provider === undefined) {
    ids = new ChosenIdGenerator()
    const exporter = new OTLPTraceExporter({ url: opts.endpoint })
    provider = new NodeTracerProvider({
      resource: resourceFromAttributes({
        [ATTR_SERVICE_NAME]: opts.serviceName,
        ...(opts.serviceVersion !== undefined && { [ATTR_SERVICE_VERSION]: opts.serviceVersion }),
      }),
      idGenerator: ids,
      // Batching as the OTEL_BSP_* variables set it (default: every 5 s, or 512 spans).
      spanProcessors: [new BatchSpanProcessor(exporter)],
    })
    provider.register({ propagator: new W3CTraceContextPropagator() })
    on = true
  }
  users++
  let stopped = false
  return {
    async stop() {
      if (stopped) return
      stopped = true
      users--
      const p = provider
      if (p === undefined) return
      if (users > 0) {
        await p.forceFlush()
        return
      }
      on = false
      provider = undefined
      ids = undefined
      await p.shutdown()
      trace.disable()
      context.disable()
      propagation.disable()
    },
  }
}

/** The context a request's `traceparent` and `tracestate` name; the empty context when tracing is off or they name none. */
export function extractContext(headers: { traceparent?: string | undefined; tracestate?: string | undefined }): Context {
  if (!on || headers.traceparent === undefined) return ROOT_CONTEXT
  return propagation.extract(ROOT_CONTEXT, headers)
}

/** `traceparent` (and `tracestate`) of the active span added to `headers`; nothing when tracing is off. */
export function injectContext(headers: Record<string, string>, from: Context = context.active()): Record<string, string> {
  if (on) propagation.inject(from, headers)
  return headers
}

export interface SpanOptions {
  kind?: SpanKind
  attributes?: Attributes
  startTime?: TimeInput
}

/** A span started under `parent` (default: the active context), not made active. */
export function startSpan(name: string, opts: SpanOptions = {}, parent: Context = context.active()): Span {
  return trace.getTracer(TRACER).startSpan(name, opts, parent)
}

/** A span whose id is `spanId` (16 hex characters), under `parent`. */
export function startSpanWithId(name: string, spanId: string, opts: SpanOptions, parent: Context): Span {
  if (ids !== undefined) ids.next = spanId
  try {
    return startSpan(name, opts, parent)
  } finally {
    if (ids !== undefined) ids.next = undefined
  }
}

/**
 * Runs `fn` with a new span active under `parent`; the span ends when `fn` settles, with an error
 * status and the error's class (never its message, which may quote the task) when it throws.
 * Tracing off: `fn` runs as it is, given no span.
 */
export async function inSpan<T>(
  name: string,
  opts: SpanOptions,
  parent: Context | undefined,
  fn: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  if (!on) return fn(undefined)
  const span = startSpan(name, opts, parent ?? context.active())
  try {
    return await context.with(trace.setSpan(parent ?? context.active(), span), () => fn(span))
  } catch (err) {
    failSpan(span, err)
    throw err
  } finally {
    span.end()
  }
}

/** Marks `span` failed with the error's code or class; its message stays out (it may quote client text). */
export function failSpan(span: Span, err: unknown): void {
  const code = (err as { code?: unknown } | null)?.code
  span.setStatus({ code: SpanStatusCode.ERROR, message: typeof code === 'string' ? code : (err as Error)?.name || 'Error' })
  if (typeof code === 'string') span.setAttribute('error.type', code)
}

/** Runs `fn` with `span` active (tracing on), or as it is. */
export function withSpan<T>(span: Span | undefined, fn: () => T): T {
  if (!on || span === undefined) return fn()
  return context.with(trace.setSpan(context.active(), span), fn)
}

/** The active span's context as a `traceparent` value, or undefined when there is none (or tracing is off). */
export function activeTraceparent(): string | undefined {
  if (!on) return undefined
  const headers: Record<string, string> = {}
  propagation.inject(context.active(), headers)
  return headers.traceparent
}

/** A fresh random span id (16 hex characters). */
export function newSpanId(): string {
  return new RandomIdGenerator().generateSpanId()
}
