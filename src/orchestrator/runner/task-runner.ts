/**
 * The task lifecycle after the API accepted a task: plan it, run its steps on pg-boss workers,
 * finish it completed, failed, cancelled or timed out. Any number of processes run this against one
 * database; docs/lifecycle.md explains why each step still executes once.
 *
 * ```ts
 * const queue = await JobQueue.start({ sql, queues: ORCHESTRATOR_QUEUES })
 * const runner = await startTaskRunner({ store, queue, sql, detector, steps, planner, maxParallelArms: 4, log })
 * const task = await store.requestCancel(tenant, id); runner.abort(task, 'cancelled') // the DELETE's fast path
 * await runner.stop(); await queue.stop()
 * ```
 */
import type { Detector } from '@ganglion/reflex'
import type { Sql } from '../../stores/sql.js'
import type { StoredTask } from '../../stores/task.js'
import type { TaskStore } from '../../stores/task-store.js'
import type { JobQueue, QueueJob } from '../queue/job-queue.js'
import { AbortRegistry } from './abort-registry.js'
import { advance } from './advance.js'
import { startCancelWatcher } from './cancel-watcher.js'
import type { TaskPlanner } from './planner.js'
import {
  ORCHESTRATOR_QUEUES,
  STEP_RUN,
  type StepRunJob,
  TASK_RUN,
  TASK_TIMEOUT,
  type TaskRef,
  type TaskRunJob,
  type TaskTimeoutJob,
} from './queues.js'
import type { RunnerContext, RunnerLog, RunnerMetrics } from './runner-context.js'
import { runStepJob } from './step-job.js'
import type { StepRunner } from './step-runner.js'
import { runTaskJob, runTimeoutJob } from './task-job.js'

export type { TaskPlanner } from './planner.js'
export type { RunnerLog, RunnerMetrics } from './runner-context.js'

export interface TaskRunnerDeps {
  store: TaskStore
  queue: JobQueue
  sql: Sql
  detector: Detector
  /** Does each step's work: the service passes ArmStepRunner. */
  steps: StepRunner
  /** Plans each task: the service passes armPlanner. */
  planner: TaskPlanner
  /** MAX_PARALLEL_ARMS: running steps per task, across every process. */
  maxParallelArms: number
  /** Called once per task that completes (the API caches the result here). */
  onCompleted?: (task: StoredTask) => Promise<void>
  metrics?: RunnerMetrics
  log: RunnerLog
}

export interface TaskRunnerOptions {
  /** task.run jobs at once in this process. Default 4. */
  taskConcurrency?: number
  /** step.run jobs at once in this process. Default 16. */
  stepConcurrency?: number
  /** How often local steps are checked against the database for a cancel or a deadline. Default 250. */
  watchIntervalMs?: number
  /** Longest one step attempt; keep it below the step.run lease. Default 60 s. */
  stepTimeoutSeconds?: number
  /** Must match the step.run queue's retryLimit. Default: ORCHESTRATOR_QUEUES. */
  stepRetryLimit?: number
  /** Must match the step.run queue's lease. Default: ORCHESTRATOR_QUEUES. */
  stepLeaseSeconds?: number
  /** New plans after a failed validation (judge VALIDATION_FAILED). Default 1. */
  maxReplans?: number
}

export interface TaskRunner {
  /** Stops this process's steps of the task at once (the process that took the DELETE). */
  abort(task: TaskRef, reason: 'cancelled' | 'timed_out'): void
  /** Stops taking jobs, lets running ones end (aborting them after 10 s), stops the watcher. */
  stop(): Promise<void>
}

export async function startTaskRunner(deps: TaskRunnerDeps, options: TaskRunnerOptions = {}): Promise<TaskRunner> {
  const stepQueue = ORCHESTRATOR_QUEUES.find((q) => q.name === STEP_RUN)
  const registry = new AbortRegistry()
  const ctx: RunnerContext = {
    store: deps.store,
    queue: deps.queue,
    sql: deps.sql,
    detector: deps.detector,
    steps: deps.steps,
    planner: deps.planner,
    maxParallelArms: Math.max(1, deps.maxParallelArms),
    onCompleted: deps.onCompleted,
    metrics: deps.metrics,
    log: deps.log,
    registry,
    stepTimeoutMs: (options.stepTimeoutSeconds ?? 60) * 1000,
    stepRetryLimit: options.stepRetryLimit ?? stepQueue?.retryLimit ?? 3,
    stepLeaseSeconds: options.stepLeaseSeconds ?? stepQueue?.expireInSeconds ?? 600,
    taskRetryLimit: ORCHESTRATOR_QUEUES.find((q) => q.name === TASK_RUN)?.retryLimit ?? 5,
    maxReplans: options.maxReplans ?? 1,
  }

  const inflight = new Set<Promise<unknown>>()
  const track =
    <T extends object>(name: string, handler: (job: QueueJob<T>) => Promise<void>) =>
    async (job: QueueJob<T>): Promise<void> => {
      const run = handler(job)
      inflight.add(run)
      try {
        await run
      } catch (err) {
        deps.log.debug({ err, queue: name, job_id: job.id, retry: job.retryCount }, 'job attempt failed')
        throw err
      } finally {
        inflight.delete(run)
      }
    }

  const workers: [string, string][] = []
  workers.push([
    TASK_RUN,
    await deps.queue.work<TaskRunJob>(
      TASK_RUN,
      track(TASK_RUN, (job) => runTaskJob(ctx, job)),
      { concurrency: options.taskConcurrency ?? 4 },
    ),
  ])
  workers.push([
    STEP_RUN,
    await deps.queue.work<StepRunJob>(
      STEP_RUN,
      track(STEP_RUN, (job) => runStepJob(ctx, job)),
      { concurrency: options.stepConcurrency ?? 16 },
    ),
  ])
  workers.push([
    TASK_TIMEOUT,
    await deps.queue.work<TaskTimeoutJob>(
      TASK_TIMEOUT,
      track(TASK_TIMEOUT, (job) => runTimeoutJob(ctx, job)),
      { concurrency: 2 },
    ),
  ])
  const stopWatcher = startCancelWatcher(deps.sql, registry, options.watchIntervalMs ?? 250, deps.log)

  return {
    abort(task, reason) {
      if (registry.abort(task.task_id, reason) > 0) return // the aborted steps' handlers finish the task
      // Nothing of it runs here: move it on now (cancelling with no running step → cancelled)
      // rather than when its next job arrives.
      const run = advance(ctx, { task_id: task.task_id, tenant: task.tenant })
        .catch((err: unknown) => deps.log.warn({ err, task_id: task.task_id }, 'advance after abort failed'))
        .finally(() => inflight.delete(run))
      inflight.add(run) // stop() waits for it like for a job
    },
    async stop() {
      for (const [name, id] of workers) await deps.queue.offWork(name, id, { wait: false })
      const settled = Promise.allSettled([...inflight])
      const late = setTimeout(() => registry.abortAll('lease_lost'), 10_000)
      await settled
      clearTimeout(late)
      stopWatcher()
    },
  }
}
