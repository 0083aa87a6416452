/**
 * `GET /api/v1/tasks/:task_id/events`: Server-Sent Events from the stored, numbered event log.
 *
 * Each event is sent as `id: <seq>`, `event: <type>`, `data: <json>`. A client resumes with the
 * standard `Last-Event-ID` header (or `?last_event_id=`, for clients that cannot set headers) and
 * gets every event after it. The stream ends once the task is final and its log is drained.
 * A stream reads the log when it opens and then only when the process's event feed wakes it
 * (event-feed.ts: a notice of an append, the listener reconnecting, the safety poll), so an idle
 * stream costs no query; every read is of what follows the last event sent, so any orchestrator
 * process can serve every task's stream and a wake too many sends nothing twice.
 * Another tenant's task is a 404, as one that does not exist (request-scope.ts).
 */
import type { Response } from 'hyper-express'
import type { Ctx, HttpApp } from '../http/app.js'
import { HttpError } from '../http/errors.js'
import { streamWrite } from '../http/stream-write.js'
import { isFinal, type TaskEvent, type TaskStatus } from '../stores/task.js'
import type { TaskStore } from '../stores/task-store.js'
import type { EventFeed } from './event-feed.js'
import { tenantToRead } from './request-scope.js'

export interface EventStreamOptions {
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

/** The event that moves a task into a final state: once it is read and the log drained, the stream ends. */
function endsTheTask(e: TaskEvent): boolean {
  const status = e.data.status
  return e.type === 'task.status' && typeof status === 'string' && isFinal(status as TaskStatus)
}

export function registerEventsRoute(app: HttpApp, store: TaskStore, feed: EventFeed, opts: EventStreamOptions = {}): void {
  const heartbeatMs = opts.heartbeatMs ?? 15_000

  app.stream(
    'GET',
    '/api/v1/tasks/:task_id/events',
    async (ctx: Ctx, res: Response) => {
      const id = ctx.params.task_id ?? ''
      const scope = tenantToRead(ctx)
      let seq = lastEventId(ctx)
      // Followed before the first read: an append committed after it wakes the read that follows.
      const follower = feed.follow(id)
      try {
        const task = await store.get(scope, id)
        if (!task) throw HttpError.notFound('task_id', `No task with id ${JSON.stringify(id)}`)
        let final = isFinal(task.status)

        res.header('content-type', 'text/event-stream; charset=utf-8')
        res.header('cache-control', 'no-cache')
        res.header('x-accel-buffering', 'no')
        await streamWrite(res, 'retry: 1000\n\n')

        let woken = false
        while (!ctx.signal.aborted) {
          const events = await store.eventsAfter(scope, id, seq, BATCH)
          // Read this far: a notice of these events arriving while they are sent wakes nothing.
          follower.seen(events.at(-1)?.seq ?? seq)
          for (const e of events) {
            if (ctx.signal.aborted) break
            await streamWrite(res, formatEvent(e))
            seq = e.seq
            if (endsTheTask(e)) final = true
          }
          if (events.length === BATCH) continue
          if (events.length === 0 && woken && !final) {
            // Woken with nothing new: the task may have ended in a transaction whose events were
            // read before, or be gone (the safety poll wakes a stream whose task row is missing).
            const now = await store.get(scope, id)
            if (!now) break
            if (isFinal(now.status)) {
              final = true
              continue // drains what its final transaction appended
            }
          }
          if (final) break
          woken = await follower.wait(heartbeatMs, ctx.signal)
          while (!woken && !ctx.signal.aborted) {
            await streamWrite(res, ': keep-alive\n\n')
            woken = await follower.wait(heartbeatMs, ctx.signal)
          }
        }
        if (!res.completed) res.end()
      } finally {
        follower.stop()
      }
    },
    { permission: 'tasks:read' },
  )
}
