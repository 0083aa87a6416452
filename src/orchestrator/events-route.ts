/**
 * `GET /api/v1/tasks/:task_id/events`: Server-Sent Events from the stored, numbered event log.
 *
 * Each event is sent as `id: <seq>`, `event: <type>`, `data: <json>`. A client resumes with the
 * standard `Last-Event-ID` header (or `?last_event_id=`, for clients that cannot set headers) and
 * gets every event after it. The stream ends once the task is final and its log is drained.
 * The log is polled, not pushed: every orchestrator process can serve every task's stream.
 * Another tenant's task is a 404, as one that does not exist (request-scope.ts).
 */
import type { Response } from 'hyper-express'
import type { Ctx, HttpApp } from '../http/app.js'
import { HttpError } from '../http/errors.js'
import { streamWrite } from '../http/stream-write.js'
import { isFinal, type TaskEvent } from '../stores/task.js'
import type { TaskStore } from '../stores/task-store.js'
import { tenantToRead } from './request-scope.js'

export interface EventStreamOptions {
  /** How often the log is read while the task runs. */
  pollMs?: number
  /** A comment line this often keeps proxies from closing an idle stream. */
  heartbeatMs?: number
}

const BATCH = 200

/** Where the stream resumes: the header, or the query when the header is absent or empty; 0 when neither says. */
function lastEventId(ctx: Ctx): number {
  const header = ctx.headers('last-event-id') ?? ''
  const [field, raw] = header !== '' ? ['Last-Event-ID', header] : ['last_event_id', ctx.query.get('last_event_id') ?? '']
  if (raw === '') return 0
  if (!/^\d{1,15}$/.test(raw)) throw HttpError.validation(field, 'must be a non-negative integer event id')
  return Number(raw)
}

export function formatEvent(e: TaskEvent): string {
  return `id: ${e.seq}\nevent: ${e.type}\ndata: ${JSON.stringify({ ...e.data, task_id: e.task_id, type: e.type, created_at: e.created_at })}\n\n`
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve()
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
  })
}

export function registerEventsRoute(app: HttpApp, store: TaskStore, opts: EventStreamOptions = {}): void {
  const pollMs = opts.pollMs ?? 250
  const heartbeatMs = opts.heartbeatMs ?? 15_000

  app.stream(
    'GET',
    '/api/v1/tasks/:task_id/events',
    async (ctx: Ctx, res: Response) => {
      const id = ctx.params.task_id ?? ''
      const scope = tenantToRead(ctx)
      let seq = lastEventId(ctx)
      if (!(await store.get(scope, id))) throw HttpError.notFound('task_id', `No task with id ${JSON.stringify(id)}`)

      res.header('content-type', 'text/event-stream; charset=utf-8')
      res.header('cache-control', 'no-cache')
      res.header('x-accel-buffering', 'no')
      await streamWrite(res, 'retry: 1000\n\n')
      let lastWrite = Date.now()

      while (!ctx.signal.aborted) {
        const events = await store.eventsAfter(scope, id, seq, BATCH)
        for (const e of events) {
          if (ctx.signal.aborted) break
          await streamWrite(res, formatEvent(e))
          seq = e.seq
          lastWrite = Date.now()
        }
        if (events.length === BATCH) continue
        const task = await store.get(scope, id)
        // Final and drained: a final state's own event is already in the log, so nothing follows.
        if (!task || isFinal(task.status)) {
          const rest = await store.eventsAfter(scope, id, seq, BATCH)
          if (rest.length === 0) break
          continue
        }
        if (Date.now() - lastWrite >= heartbeatMs) {
          await streamWrite(res, ': keep-alive\n\n')
          lastWrite = Date.now()
        }
        await sleep(pollMs, ctx.signal)
      }
      if (!res.completed) res.end()
    },
    { permission: 'tasks:read' },
  )
}
