/**
 * The task record (`GET /api/v1/tasks/{id}`, openapi.yaml) and what the store keeps beside it.
 *
 * `TaskRecord` is exactly what the API returns; `StoredTask` adds the fields the orchestrator needs
 * and clients never see (request context, budget, owner, cancellation and deadline bookkeeping).
 * `toTaskRecord` strips them. Timestamps are ISO-8601 strings.
 */
import { type StepFailure, stepFailure } from '../step-errors.js'

export const TASK_STATUSES = [
  'queued',
  'planning',
  'running',
  'cancelling',
  'completed',
  'failed',
  'cancelled',
  'timed_out',
  'rejected',
] as const
export type TaskStatus = (typeof TASK_STATUSES)[number]

/** Once here a task never changes status again. */
export const FINAL_STATUSES: readonly TaskStatus[] = ['completed', 'failed', 'cancelled', 'timed_out', 'rejected']
/** Not final: a worker may still act on the task. */
export const ACTIVE_STATUSES: readonly TaskStatus[] = ['queued', 'planning', 'running', 'cancelling']

export function isFinal(status: TaskStatus): boolean {
  return FINAL_STATUSES.includes(status)
}

/** Ordered low → critical; list sorting by priority uses this rank, not the alphabet. */
export const PRIORITIES = ['low', 'medium', 'high', 'critical'] as const
export type Priority = (typeof PRIORITIES)[number]

export const STEP_STATUSES = ['pending', 'running', 'completed', 'failed', 'skipped', 'cancelled'] as const
export type StepStatus = (typeof STEP_STATUSES)[number]

/** A step's or the task's error: a code of the step error catalogue, or one an external arm reported. */
export type TaskError = StepFailure

export interface TaskUsage {
  llm_tokens: { prompt: number; completion: number; total: number }
  arm_calls: number
}

export interface TaskStep {
  step_id: string
  action: string
  arm: string
  /** The arm's tool this step uses (`shell`, `search`…); null for a plan written before tools existed. */
  tool: string | null
  /** The tool's parameters, as the planner wrote them. */
  input: Record<string, unknown>
  depends_on: string[]
  status: StepStatus
  attempts: number
  started_at: string | null
  completed_at: string | null
  output: unknown
  error: TaskError | null
  /** Who produced the output: arm, tool, timings, tokens, model, capability token id. */
  provenance: unknown
}

export interface TaskProgress {
  completed_steps: number
  total_steps: number
  /** 0..100, whole numbers. */
  percentage: number
}

/** `constraints` is an object, or natural-language constraints as a list of strings. */
export type TaskConstraints = Record<string, unknown> | string[]

export interface TaskRecord {
  task_id: string
  status: TaskStatus
  goal: string
  constraints: TaskConstraints
  priority: Priority
  created_at: string
  updated_at: string
  started_at: string | null
  completed_at: string | null
  plan: { steps: TaskStep[] }
  result: unknown
  error: TaskError | null
  usage: TaskUsage
  cached: boolean
  progress: TaskProgress
}

export interface TaskBudget {
  max_tokens?: number
  max_time_seconds?: number
  max_cost_usd?: number
}

/**
 * The request that submitted a task (docs/observability.md): its `X-Request-ID`, and with tracing
 * on the W3C context of the task's own span (`traceparent`, whose span id is the task span's) and
 * the span it is a child of (`parent_span_id`, the submitting request's server span).
 */
export interface TaskOrigin {
  request_id: string
  traceparent?: string
  tracestate?: string
  parent_span_id?: string
}

export interface StoredTask extends TaskRecord {
  /** Whose task it is (docs/security.md, "Tenants"); not in the record: a client sees only its own tenant's. */
  tenant: string
  context: unknown
  acceptance_criteria: string[]
  budget: TaskBudget
  metadata: Record<string, unknown>
  user_id: string | null
  client_ip: string | null
  /** Why the reflex layer refused the task (status `rejected`). */
  reason: string | null
  cancel_requested_at: string | null
  deadline_at: string | null
  /** Bumped by every update of the task row. */
  version: number
  /** New plans the task got after a failed validation. */
  replans: number
  /** The submitting request; null for a task created before it was kept (or absent where none is read). */
  origin?: TaskOrigin | null
}

export function toTaskRecord(task: StoredTask): TaskRecord {
  return {
    task_id: task.task_id,
    status: task.status,
    goal: task.goal,
    constraints: task.constraints,
    priority: task.priority,
    created_at: task.created_at,
    updated_at: task.updated_at,
    started_at: task.started_at,
    completed_at: task.completed_at,
    plan: task.plan,
    result: task.result,
    // A rejected task's reason is its error: the record has no other place a client would look.
    error: task.error ?? (task.status === 'rejected' && task.reason ? stepFailure('REJECTED', task.reason) : null),
    usage: task.usage,
    cached: task.cached,
    progress: task.progress,
  }
}

export interface TaskEvent {
  task_id: string
  /** 1, 2, 3… per task; the SSE `id`. */
  seq: number
  /** `task.created`, `task.status`, `step.started`, `step.completed`, `guardrail.*`, `budget.*`… */
  type: string
  data: Record<string, unknown>
  created_at: string
}
