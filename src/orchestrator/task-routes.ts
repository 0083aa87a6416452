/**
 * The task API: create, read, list, cancel (openapi.yaml) and the variant paths.
 *
 * Every task is its tenant's (request-scope.ts): created in the caller's tenant, and read, listed,
 * streamed and cancelled only there. Another tenant's task is a 404 like a task that does not
 * exist. The user a task is created for is the principal, or the user a `service` gateway names
 * in `X-User-ID`: it scopes idempotency keys (within the tenant) and is stored with the task.
 */
import type { Ctx, HttpApp, Reply } from '../http/app.js'
import { HttpError } from '../http/errors.js'
import { pageEnvelope, parsePageQuery } from '../http/pagination.js'
import { compileSchema } from '../http/validate.js'
import type { Metrics } from '../metrics.js'
import { isFinal, type StoredTask, TASK_STATUSES, type TaskStatus, toTaskRecord } from '../stores/task.js'
import { IdempotencyConflict, type TaskSortKey, type TaskStore } from '../stores/task-store.js'
import { endTaskSpan, taskOrigin } from '../telemetry/task-trace.js'
import { actingUser, tenantToRead, tenantToWrite } from './request-scope.js'
import type { TaskRunner } from './runner/task-runner.js'
import { CreateTaskRequest } from './schemas.js'
import type { TaskService } from './task-service.js'

export interface TaskRouteDeps {
  service: TaskService
  store: TaskStore
  runner: TaskRunner
  metrics: Metrics
}

const SORT_FIELDS: readonly TaskSortKey[] = ['created_at', 'updated_at', 'status', 'priority']
const MAX_IDEMPOTENCY_KEY = 255
const parseCreate = compileSchema(CreateTaskRequest)

function idempotencyKey(ctx: Ctx): string | undefined {
  const key = ctx.headers('idempotency-key')
  if (key === undefined) return undefined
  if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY) {
    throw HttpError.validation('Idempotency-Key', `must be 1 to ${MAX_IDEMPOTENCY_KEY} characters`)
  }
  return key
}

async function mustGet(store: TaskStore, ctx: Ctx): Promise<StoredTask> {
  const id = ctx.params.task_id ?? ''
  const task = await store.get(tenantToRead(ctx), id)
  if (!task) throw HttpError.notFound('task_id', `No task with id ${JSON.stringify(id)}`)
  return task
}

export function registerTaskRoutes(app: HttpApp, deps: TaskRouteDeps): void {
  const create = async (ctx: Ctx): Promise<Reply> => {
    const req = parseCreate(ctx.body)
    const tenant = tenantToWrite(ctx)
    const user = actingUser(ctx)
    const key = idempotencyKey(ctx)
    const headers: Record<string, string> = {}
    let outcome
    try {
      outcome = await deps.service.create(req, {
        tenant,
        idempotencyKey: key,
        userId: user,
        clientIp: ctx.ip,
        origin: taskOrigin(ctx.requestId),
      })
    } catch (err) {
      if (err instanceof IdempotencyConflict) {
        throw HttpError.conflict(
          'This Idempotency-Key was used with a different request body',
          'Idempotency-Key',
          'must be reused only with the same request body',
        )
      }
      throw err
    }
    const { task, replayed } = outcome
    if (!replayed) deps.metrics.taskCreated(task.status)
    // Refused or answered from the cache: the task ends here, and so does its span.
    if (!replayed && isFinal(task.status)) endTaskSpan(task)
    headers.Location = `/api/v1/tasks/${encodeURIComponent(task.task_id)}`
    if (replayed) headers['Idempotent-Replayed'] = 'true'
    return { status: 201, headers, body: toTaskRecord(task) }
  }

  const get = async (ctx: Ctx): Promise<Reply> => ({ body: toTaskRecord(await mustGet(deps.store, ctx)) })

  const list = async (ctx: Ctx): Promise<Reply> => {
    const q = parsePageQuery(ctx.query, { sortFields: SORT_FIELDS, defaultSort: 'created_at' })
    const status = ctx.query.getAll('status')
    if (status.length > 1) throw HttpError.validation('status', 'must be given at most once')
    const only = status[0]
    if (only !== undefined && !TASK_STATUSES.includes(only as TaskStatus)) {
      throw HttpError.validation('status', `must be one of ${TASK_STATUSES.join(', ')}`)
    }
    const { items, total } = await deps.store.list(tenantToRead(ctx), {
      ...(only !== undefined && { status: only as TaskStatus }),
      sortBy: q.sortBy as TaskSortKey,
      order: q.order,
      limit: q.pageSize,
      offset: q.offset,
    })
    return { body: pageEnvelope(items.map(toTaskRecord), total, q) }
  }

  const cancel = async (ctx: Ctx): Promise<Reply> => {
    const task = await deps.store.requestCancel(tenantToRead(ctx), ctx.params.task_id ?? '')
    if (!task) throw HttpError.notFound('task_id', `No task with id ${JSON.stringify(ctx.params.task_id)}`)
    // Abort in-flight work here at once; other processes' watchers notice the cancelling state.
    if (task.status === 'cancelling') deps.runner.abort(task, 'cancelled')
    return { body: toTaskRecord(task) }
  }

  app.route('POST', '/api/v1/tasks', create, { permission: 'tasks:write' })
  app.route('POST', '/task', create, { permission: 'tasks:write' })
  app.route('GET', '/api/v1/tasks', list, { permission: 'tasks:read' })
  app.route('GET', '/api/v1/tasks/:task_id', get, { permission: 'tasks:read' })
  app.route('GET', '/task/:task_id', get, { permission: 'tasks:read' })
  app.route('DELETE', '/api/v1/tasks/:task_id', cancel, { permission: 'tasks:write' })
  app.route('POST', '/api/v1/tasks/:task_id/cancel', cancel, { permission: 'tasks:write', body: 'none' })
  app.route('POST', '/task/:task_id/cancel', cancel, { permission: 'tasks:write', body: 'none' })
}
