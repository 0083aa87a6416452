/**
 * Deleting what is finished (docs/storage.md, "Retention and deletion"):
 *
 * ```ts
 * registerDeletionRoutes(app, { store, sql, knowledge, answers })
 * // DELETE /api/v1/tasks/{task_id}/record → 204 | 403 not the submitter | 404 | 409 still active
 * // DELETE /api/v1/tenants/{tenant}       → 200 { tenant, erased: {tasks, …} } | 409 tasks still active
 * ```
 *
 * `DELETE /api/v1/tasks/{task_id}` itself cancels (the interface we serve says so), so deleting a
 * task's record has a path of its own: a finished task only, by the user who submitted it or an
 * admin; a task still queued or running is a 409 that says to cancel it first. Another tenant's
 * task is the 404 of one that does not exist. Erasing a tenant is an admin's (`tenants:admin`).
 */

import type { EpisodicMemory } from '../arms/memory.js'
import { isAdmin } from '../auth/principal.js'
import type { Ctx, HttpApp, Reply } from '../http/app.js'
import { HttpError } from '../http/errors.js'
import type { KnowledgeStore } from '../stores/knowledge-store.js'
import type { Sql } from '../stores/sql.js'
import { FINAL_STATUSES, isFinal, type StoredTask } from '../stores/task.js'
import { forgetVectorsOf, TaskDeletion } from '../stores/task-deletion.js'
import type { TaskStore } from '../stores/task-store.js'
import { actingUser, tenantToRead } from './request-scope.js'
import { eraseTenant } from './tenant-erasure.js'

export interface DeletionRouteDeps {
  store: TaskStore
  sql: Sql
  knowledge: KnowledgeStore
  /** Episodic memory: a tenant's erasure removes its vectors too. */
  memory?: EpisodicMemory
  /** Drops a deleted task's cached answer, if it left one. */
  forgetAnswer: (task: StoredTask) => Promise<void>
}

/** Task ids are UUIDs (the API makes them); anything else names no task. Linear: no nested quantifier. */
const TASK_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
/** What a credential may name as its tenant (docs/security.md): 1 to 256 characters, none a control character. */
const TENANT_NAME = /^[^\p{Cc}]{1,256}$/u

function taskId(ctx: Ctx): string {
  const id = ctx.params.task_id ?? ''
  if (!TASK_ID.test(id)) throw HttpError.validation('task_id', 'must be a task id (a lowercase UUID)')
  return id
}

function tenantName(ctx: Ctx): string {
  const name = ctx.params.tenant ?? ''
  if (!TENANT_NAME.test(name) || name === '*') {
    throw HttpError.validation('tenant', 'must be one tenant name of 1 to 256 characters, none a control character, not *')
  }
  return name
}

export function registerDeletionRoutes(app: HttpApp, deps: DeletionRouteDeps): void {
  app.route(
    'DELETE',
    '/api/v1/tasks/:task_id/record',
    async (ctx: Ctx): Promise<Reply> => {
      const id = taskId(ctx)
      const scope = tenantToRead(ctx)
      const task = await deps.store.get(scope, id)
      if (!task) throw HttpError.notFound('task_id', `No task with id ${JSON.stringify(id)}`)
      if (!isAdmin(ctx.principal) && task.user_id !== actingUser(ctx)) {
        throw HttpError.forbidden(
          'Only the user who submitted a task, or an admin, may delete it',
          'task_id',
          'must be a task you submitted',
        )
      }
      if (!isFinal(task.status)) {
        throw HttpError.conflict(
          `The task is ${task.status}: cancel it first (POST /api/v1/tasks/{task_id}/cancel), then delete it once it has stopped`,
          'status',
          `must be one of ${FINAL_STATUSES.join(', ')}`,
        )
      }
      // Final is final, so only a racing delete can make this miss: then the task is gone either way.
      if (!(await new TaskDeletion(deps.sql, forgetVectorsOf(deps.memory)).deleteFinished(task.tenant, id))) {
        throw HttpError.notFound('task_id', `No task with id ${JSON.stringify(id)}`)
      }
      await deps.forgetAnswer(task)
      return { status: 204 }
    },
    { permission: 'tasks:write', body: 'none' },
  )

  app.route(
    'DELETE',
    '/api/v1/tenants/:tenant',
    async (ctx: Ctx): Promise<Reply> => {
      const tenant = tenantName(ctx)
      const outcome = await eraseTenant(deps, tenant)
      if ('active' in outcome) {
        throw HttpError.conflict(
          `The tenant has ${outcome.active} task(s) still queued or running: cancel them first, then erase the tenant`,
          'tenant',
          'must have no task queued, planning, running or cancelling',
        )
      }
      return { body: { tenant, erased: outcome.erased } }
    },
    { permission: 'tenants:admin', body: 'none' },
  )
}
