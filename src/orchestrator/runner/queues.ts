/**
 * The orchestrator's job queues and the one call the API makes inside its create transaction.
 *
 * ```ts
 * const queue = await JobQueue.start({ sql, queues: ORCHESTRATOR_QUEUES })
 * await store.create(task, { enqueue: (tx) => enqueueTask(queue, tx, { task_id, tenant, timeout_seconds: 300 }) })
 * ```
 *
 * Every job names its task's tenant beside its id, and the runner acts on the task through that
 * tenant only (docs/security.md, "Tenants"). A job sent before tenants existed has none: its task
 * is in the default tenant, where the migration put every task of that time.
 */

import { DEFAULT_TENANT } from '../../auth/principal.js'
import type { Sql } from '../../stores/sql.js'
import type { Priority } from '../../stores/task.js'
import type { JobQueue, QueueDefinition } from '../queue/job-queue.js'

export const TASK_RUN = 'task.run'
export const STEP_RUN = 'step.run'
export const TASK_TIMEOUT = 'task.timeout'

/** What names a task for the runner: every store call it makes filters by both. A StoredTask is one. */
export interface TaskRef {
  task_id: string
  tenant: string
}

/** A job's task: its `tenant`, or the default tenant for a job sent before tenants existed. */
export function jobTask(data: { task_id: string; tenant?: string | undefined }): TaskRef {
  return { task_id: data.task_id, tenant: typeof data.tenant === 'string' ? data.tenant : DEFAULT_TENANT }
}

export interface TaskRunJob {
  task_id: string
  /** Absent only from jobs sent before tenants existed (see `jobTask`). */
  tenant?: string
}
export interface TaskTimeoutJob {
  task_id: string
  tenant?: string
}
export interface StepRunJob {
  task_id: string
  tenant?: string
  step_id: string
  /** Date.now() when the step became ready: dispatch latency is measured from here. */
  ready_at: number
}

export interface QueueTuning {
  /** Lease of every queue; an attempt still running after it is retried elsewhere. */
  expireInSeconds?: number
  /** Retries of a step after its first attempt (retryable failures only). Default 3. */
  stepRetryLimit?: number
  /** First retry delay of a step; doubles each retry. Default 1. */
  stepRetryDelaySeconds?: number
}

/** The queue definitions, with the lease and step retries tunable (tests and fault runs use seconds). */
export function orchestratorQueues(tuning: QueueTuning = {}): QueueDefinition[] {
  const lease = tuning.expireInSeconds
  return [
    // Planning is quick; the lease only matters when a worker dies holding the job.
    { name: TASK_RUN, retryLimit: 5, retryDelaySeconds: 1, retryBackoff: true, expireInSeconds: lease ?? 5 * 60 },
    // A step attempt is bounded by the runner's step timeout (60 s), well inside this lease, so a live
    // attempt never sees a second one started beside it. Step jobs are sent by the process that
    // advanced the task, so one of its own workers is woken per job (wakeOne) rather than every
    // step worker of every process by a NOTIFY.
    {
      name: STEP_RUN,
      wakeOne: true,
      retryLimit: tuning.stepRetryLimit ?? 3,
      retryDelaySeconds: tuning.stepRetryDelaySeconds ?? 1,
      retryBackoff: true,
      expireInSeconds: lease ?? 10 * 60,
    },
    { name: TASK_TIMEOUT, retryLimit: 5, retryDelaySeconds: 1, retryBackoff: true, expireInSeconds: lease ?? 60 },
  ]
}

export const ORCHESTRATOR_QUEUES: QueueDefinition[] = orchestratorQueues()

/**
 * The pg-boss priority of a task's jobs (`task.run` and every `step.run`): workers fetch the highest
 * first, then the oldest. `medium`, the default, is 0, pg-boss's own default, so a job sent before
 * priorities reached the queue ranks with the medium ones, and `low` goes below it.
 */
export const QUEUE_PRIORITY: Readonly<Record<Priority, number>> = { low: -1, medium: 0, high: 1, critical: 2 }

/** A task's queue priority; a task stored without one is `medium`. */
export function queuePriority(priority: Priority | undefined): number {
  return QUEUE_PRIORITY[priority ?? 'medium']
}

/** What the jobs of a new task need besides its id and tenant. */
export interface TaskJobs extends TaskRef {
  timeout_seconds: number
  /** Default `medium`. */
  priority?: Priority | undefined
}

/**
 * Sends `task.run` and the delayed `task.timeout` on the caller's transaction: both exist exactly when
 * the task does.
 */
export async function enqueueTask(queue: JobQueue, tx: Sql, task: TaskJobs): Promise<void> {
  await queue.send(TASK_RUN, { task_id: task.task_id, tenant: task.tenant } satisfies TaskRunJob, {
    tx,
    priority: queuePriority(task.priority),
  })
  await queue.send(TASK_TIMEOUT, { task_id: task.task_id, tenant: task.tenant } satisfies TaskTimeoutJob, {
    tx,
    startAfterSeconds: Math.max(1, Math.ceil(task.timeout_seconds)),
  })
}

/**
 * `enqueueTask` for a batch of tasks created in one transaction: one `task.run` insert and one
 * `task.timeout` insert for all of them, whatever their number.
 */
export async function enqueueTasks(queue: JobQueue, tx: Sql, tasks: readonly TaskJobs[]): Promise<void> {
  await queue.sendMany(
    TASK_RUN,
    tasks.map((t) => ({ data: { task_id: t.task_id, tenant: t.tenant } satisfies TaskRunJob, priority: queuePriority(t.priority) })),
    { tx },
  )
  await queue.sendMany(
    TASK_TIMEOUT,
    tasks.map((t) => ({
      data: { task_id: t.task_id, tenant: t.tenant } satisfies TaskTimeoutJob,
      startAfterSeconds: Math.max(1, Math.ceil(t.timeout_seconds)),
    })),
    { tx },
  )
}
