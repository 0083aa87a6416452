/**
 * What every handler of the runner shares: the ports it acts through and the limits it keeps.
 */
import type { Detector } from '@ganglion/reflex'
import type { Sql } from '../../stores/sql.js'
import type { StepStatus, StoredTask, TaskStatus } from '../../stores/task.js'
import type { TaskStore } from '../../stores/task-store.js'
import type { JobQueue } from '../queue/job-queue.js'
import type { AbortRegistry } from './abort-registry.js'
import type { TaskPlanner } from './planner.js'
import type { StepRunner } from './step-runner.js'

/** Implemented with prom-client by the service; every method is synchronous and cheap. */
export interface RunnerMetrics {
  stepStarted(arm: string): void
  /** `pending` means the attempt failed and the step went back for a retry. */
  stepFinished(arm: string, status: StepStatus, seconds: number): void
  taskFinished(status: TaskStatus, seconds: number): void
  /** From a step becoming ready (its job sent) to a worker starting it. */
  dispatchLatency(seconds: number): void
  /** Tokens an arm call spent; `model` as provenance names it (`provider/model`). */
  modelTokens(model: string | null, prompt: number, completion: number): void
}

type LogFn = (obj: object, msg?: string) => void
/** The part of pino the runner uses. */
export interface RunnerLog {
  info: LogFn
  warn: LogFn
  error: LogFn
  debug: LogFn
}

export interface RunnerContext {
  store: TaskStore
  queue: JobQueue
  sql: Sql
  detector: Detector
  steps: StepRunner
  planner: TaskPlanner
  maxParallelArms: number
  onCompleted?: ((task: StoredTask) => Promise<void>) | undefined
  metrics?: RunnerMetrics | undefined
  log: RunnerLog
  registry: AbortRegistry
  /** Longest one step attempt may run, before the task's own deadline. */
  stepTimeoutMs: number
  /** Attempts of a step beyond the first before a retryable failure fails the task. */
  stepRetryLimit: number
  /** Retries of task.run: planning failures past it fail the task. */
  taskRetryLimit: number
  /** The step.run lease: a running step older than this has lost its worker. */
  stepLeaseSeconds: number
  /** New plans a task may get after a failed validation (one: a second failure ends the task). */
  maxReplans: number
}
