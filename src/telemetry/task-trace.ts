/**
 * A task's place in its trace (docs/observability.md). A task outlives the request that submitted
 * it and runs as several queue jobs, possibly on several workers, so its span cannot be one open
 * object: the submission chooses the task span's id and stores it with the task (`origin`), every
 * job makes its spans children of that id, and the worker that moves the task to a final state
 * writes the task span itself, from the task's creation to that moment, under the chosen id.
 *
 * ```ts
 * const origin = taskOrigin(ctx.requestId)          // at submission, inside the request's server span
 * await inTaskScope(task, () => inSpan('task.step', opts, taskContext(task), run))
 * endTaskSpan(task)                                  // when it reaches a final state
 * ```
 */
import { type Context, context, isSpanContextValid, ROOT_CONTEXT, TraceFlags, trace } from '@opentelemetry/api'
import type { StoredTask, TaskOrigin } from '../stores/task.js'
import { runWithRequestId } from './request-scope.js'
import { extractContext, newSpanId, SpanKind, SpanStatusCode, startSpanWithId, tracingOn } from './tracing.js'

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/

/**
 * What a new task keeps of the request submitting it: its id and, tracing on, its task span's
 * context, a child of the active span (the request's server span).
 */
export function taskOrigin(requestId: string): TaskOrigin {
  if (!tracingOn()) return { request_id: requestId }
  const at = trace.getSpanContext(context.active())
  const valid = at !== undefined && isSpanContextValid(at)
  // A trace of its own when the request carried none (and had no server span).
  const traceId = valid ? at.traceId : `${newSpanId()}${newSpanId()}`
  const flags = valid ? at.traceFlags : TraceFlags.SAMPLED
  const tracestate = valid ? at.traceState?.serialize() : undefined
  return {
    request_id: requestId,
    traceparent: `00-${traceId}-${newSpanId()}-${flags.toString(16).padStart(2, '0')}`,
    ...(tracestate && { tracestate }),
    ...(valid && { parent_span_id: at.spanId }),
  }
}

/** The context the task's spans are children of: its own span's; undefined when it has none or tracing is off. */
export function taskContext(task: Pick<StoredTask, 'origin'>): Context | undefined {
  const origin = task.origin
  if (!tracingOn() || origin?.traceparent === undefined) return undefined
  return extractContext({ traceparent: origin.traceparent, tracestate: origin.tracestate })
}

/** Runs `fn` as work of the request that submitted `task`: its log lines and outgoing calls name that request's id. */
export function inTaskScope<T>(task: Pick<StoredTask, 'origin'>, fn: () => T): T {
  return runWithRequestId(task.origin?.request_id, fn)
}

/** Writes the span of a task that reached a final state: from its creation to now, under the id its origin chose. */
export function endTaskSpan(task: StoredTask): void {
  if (!tracingOn()) return
  const m = TRACEPARENT.exec(task.origin?.traceparent ?? '')
  if (m === null) return
  const [, traceId, spanId, flags] = m as unknown as [string, string, string, string]
  const parentSpanId = task.origin?.parent_span_id
  const parent =
    parentSpanId !== undefined && /^[0-9a-f]{16}$/.test(parentSpanId)
      ? trace.setSpanContext(ROOT_CONTEXT, { traceId, spanId: parentSpanId, traceFlags: Number.parseInt(flags, 16), isRemote: true })
      : // No parent: a root span of the same trace id, which only a parent can carry into the SDK.
        trace.setSpanContext(ROOT_CONTEXT, { traceId, spanId: newSpanId(), traceFlags: Number.parseInt(flags, 16), isRemote: true })
  const span = startSpanWithId(
    'task',
    spanId,
    {
      kind: SpanKind.INTERNAL,
      startTime: new Date(task.created_at),
      attributes: {
        'ganglion.task.id': task.task_id,
        'ganglion.task.status': task.status,
        'ganglion.task.priority': task.priority,
        'ganglion.task.steps': task.plan.steps.length,
        'ganglion.task.cached': task.cached,
        ...(task.error && { 'error.type': task.error.code }),
      },
    },
    parent,
  )
  if (task.status !== 'completed') span.setStatus({ code: SpanStatusCode.ERROR, message: task.status })
  span.end()
}
