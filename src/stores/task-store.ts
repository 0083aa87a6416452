/**
 * The task store port: durable tasks, their plan steps and their numbered event log.
 *
 * ```ts
 * const { task, replayed } = await store.create({ ...input, tenant: 'acme' }, {
 *   idempotencyKey, requestHash,
 *   enqueue: (tx) => queue.send(tx, 'task.run', { task_id: input.task_id, tenant: 'acme' }),
 * })
 * const running = await store.transition('acme', task.task_id, ['planning'], 'running')
 * if (!running) return // someone else moved it (cancelled, timed out): leave it alone
 * await store.get('other-tenant', task.task_id) // null: another tenant's task is not there
 * ```
 *
 * Three rules every method keeps:
 * - Tenant rule: every task belongs to one tenant (`NewTask.tenant`), and every method that reads
 *   or changes a task, its steps or its events takes a `TenantScope` first and filters by it. A
 *   task of another tenant is missing (null, false, `unavailable`), never an error that says it
 *   exists. `ANY_TENANT` (src/stores/tenant.ts) lifts the filter, for an admin's request only.
 * - Transaction rule: a change and the events that describe it commit together, and `create`
 *   commits the task, its first event, its idempotency key and its job in one transaction
 *   (`createBatch`: several tasks, each with its event and job, in one transaction).
 * - Conditional-update rule: status changes name the states they may start from
 *   (`where status = any($from)`), so a late or duplicate worker gets `null` and can never
 *   overwrite a final state.
 *
 * Deliberately left out: deleting tasks (src/stores/task-deletion.ts, for the delete route,
 * retention and tenant erasure) and pruning idempotency keys (src/orchestrator/retention.ts),
 * full-text search over goals, and any cache of records
 * (the reflex layer caches results, the store answers from the database every time).
 */
import type { Sql } from './sql.js'
import type {
  Priority,
  StepStatus,
  StoredTask,
  TaskBudget,
  TaskConstraints,
  TaskError,
  TaskEvent,
  TaskOrigin,
  TaskStatus,
  TaskStep,
  TaskUsage,
} from './task.js'
import type { TenantScope } from './tenant.js'

export interface NewTask {
  /** Chosen by the caller (a UUID) so the Location header and the job can name it before commit. */
  task_id: string
  /** The tenant the task belongs to, for good: every later read and change is filtered by it. */
  tenant: string
  goal: string
  /** Default `queued`; `rejected` for a task the reflex layer refused (with `reason`). */
  status?: 'queued' | 'rejected' | 'completed'
  constraints?: TaskConstraints
  context?: unknown
  acceptance_criteria?: string[]
  budget?: TaskBudget
  priority?: Priority
  metadata?: Record<string, unknown>
  user_id?: string | null
  client_ip?: string | null
  reason?: string | null
  deadline_at?: string | null
  /** A cache hit is created `completed` with its result and `cached: true`. */
  result?: unknown
  cached?: boolean
  /** The submitting request's id and trace context (task.ts). */
  origin?: TaskOrigin | null
}

export interface CreateOptions {
  /**
   * Unique per tenant (the task's): the same key in two tenants names two tasks. Scope it yourself
   * (e.g. `${userId}:${header}`) if keys are per user.
   */
  idempotencyKey?: string
  /** A hash of the request body; the same key with another hash is an IdempotencyConflict. */
  requestHash?: string
  /** Runs inside the create transaction (pg-boss `send` with `{ db: tx }`); not called on a replay. */
  enqueue?: (tx: Sql) => Promise<void>
}

export interface CreateResult {
  task: StoredTask
  /** True when the idempotency key was seen before and `task` is the original. */
  replayed: boolean
}

export type TaskSortKey = 'created_at' | 'updated_at' | 'status' | 'priority'

export interface ListQuery {
  status?: TaskStatus
  /** Only tasks created by this user. */
  userId?: string
  sortBy?: TaskSortKey
  order?: 'asc' | 'desc'
  limit: number
  offset: number
}

export interface TaskPatch {
  /**
   * Steps still `pending` move to this state in the same transaction (with their `step.<state>`
   * events, logged before the `task.status`), so a finished task is never seen with waiting steps.
   */
  settlePending?: 'skipped' | 'cancelled'
  result?: unknown
  error?: TaskError | null
  usage?: TaskUsage
  cached?: boolean
  reason?: string | null
  deadline_at?: string | null
}

export interface NewStep {
  step_id: string
  action: string
  arm: string
  tool?: string
  input?: Record<string, unknown>
  depends_on?: string[]
}

export interface StepPatch {
  output?: unknown
  error?: TaskError | null
  provenance?: unknown
}

/** What `reserveTokens` granted: null when the task has no token budget (nothing is held back). */
export interface TokenGrant {
  granted: number | null
  /** The task's limit (the smaller of constraints.max_tokens and budget.max_tokens), or null. */
  limit: number | null
  /** Settled usage before this grant. */
  used: number
  /** With a cost budget and a price: the US dollars held with the grant (`granted` × the price per token). */
  heldUsd?: number
}

/** The cost side of a settlement: the hold `reserveTokens` took, and what the call really cost. */
export interface CostSettlement {
  heldUsd: number
  spentUsd: number
}

/** What `claimStep` did: began the step, refused because the task is at its running limit, or found it taken. */
export type StepClaim =
  /** `task` as it stands right after the claim (this step running), read under the task row lock. */
  | { outcome: 'started'; step: TaskStep; task: StoredTask }
  | { outcome: 'busy'; running: number }
  /** `status`: the task's status when the claim looked (null: no such task). */
  | { outcome: 'unavailable'; status: TaskStatus | null }

/** What `moveStep` did: the step after the move and the task as it then stands, read under its row lock. */
export interface StepMove {
  step: TaskStep
  task: StoredTask
}

export interface ClaimOptions {
  /** States the step may start from. Default `['pending']`. */
  from?: readonly StepStatus[]
  /** Refuse (`busy`) when this many steps of the task are already running (MAX_PARALLEL_ARMS). */
  maxRunning?: number
  /**
   * With `running` in `from`: take a running step only if it began at least this long ago, i.e. its
   * worker's lease has run out. A retry then never starts a second copy beside a live attempt.
   */
  staleAfterSeconds?: number
  /** Claim only while the task is in one of these states (`unavailable` otherwise). Default: any active but cancelling. */
  taskFrom?: readonly TaskStatus[]
}

export interface EventInput {
  type: string
  data?: Record<string, unknown>
}

export interface TaskStore {
  /**
   * Inserts a task with its `task.created` event, or returns the original on an idempotent replay.
   * @throws IdempotencyConflict when the key was used with a different `requestHash`.
   */
  create(task: NewTask, options?: CreateOptions): Promise<CreateResult>
  /**
   * Inserts several tasks, each with its `task.created` event, and runs `enqueue` (their jobs), all
   * in ONE transaction: every task of the batch commits with its job, or none does. No idempotency
   * keys: a keyed request goes through `create`. Any failing row (a duplicate task_id…) fails the
   * whole batch; the caller retries its tasks one by one to find it. Records in input order.
   */
  createBatch(tasks: readonly NewTask[], enqueue?: (tx: Sql) => Promise<void>): Promise<StoredTask[]>
  get(tenant: TenantScope, taskId: string): Promise<StoredTask | null>
  /** A page of tasks and the total matching the filter; ties broken by task_id so pages are stable. */
  list(tenant: TenantScope, query: ListQuery): Promise<{ items: StoredTask[]; total: number }>
  /**
   * Moves the task to `to` if its status is one of `from` (never out of a final state), applies `patch`, stamps started_at /
   * completed_at, and appends a `task.status` event (plus `event`, if given) in the same transaction.
   * Returns null when the task is missing or in another state.
   */
  transition(
    tenant: TenantScope,
    taskId: string,
    from: readonly TaskStatus[],
    to: TaskStatus,
    patch?: TaskPatch,
    event?: EventInput,
  ): Promise<StoredTask | null>
  /**
   * Persists a cancel request: queued → cancelled at once; planning/running → cancelling (the worker
   * aborts and finishes it as cancelled); a finished task is returned unchanged. Null when missing.
   */
  requestCancel(tenant: TenantScope, taskId: string): Promise<StoredTask | null>
  /**
   * Records the plan. New steps are inserted `pending`; a step still `pending` is updated in place;
   * started steps are left alone. Returns false (and writes nothing) when the task is missing or final.
   */
  upsertSteps(tenant: TenantScope, taskId: string, steps: readonly NewStep[]): Promise<boolean>
  /**
   * A worker begins a step: `from` → running, attempts and executions + 1, `step.started` event.
   * Null when the step is in another state or the task is final, so at most one worker starts it.
   */
  startStep(tenant: TenantScope, taskId: string, stepId: string, from?: readonly StepStatus[]): Promise<TaskStep | null>
  /**
   * `startStep` with a per-task limit: the running steps are counted under the task row lock, so the
   * limit holds across processes. `busy` writes nothing.
   */
  claimStep(tenant: TenantScope, taskId: string, stepId: string, options?: ClaimOptions): Promise<StepClaim>
  /**
   * Moves a step `from` → `to` with output/error, appending `step.<to>`; null when it is in another state.
   */
  updateStep(
    tenant: TenantScope,
    taskId: string,
    stepId: string,
    from: readonly StepStatus[],
    to: StepStatus,
    patch?: StepPatch,
  ): Promise<TaskStep | null>
  /**
   * `updateStep` that also returns the task as the move left it (read in the same statement as the
   * event, under the task row lock), so the caller can move the task on without reading it again.
   */
  moveStep(
    tenant: TenantScope,
    taskId: string,
    stepId: string,
    from: readonly StepStatus[],
    to: StepStatus,
    patch?: StepPatch,
  ): Promise<StepMove | null>
  /**
   * Holds back up to `want` tokens of the task's budget for one model-using call, under the task row
   * lock: at most what is left after settled usage and other holds, divided by `share` (the calls
   * that may run beside this one, itself included; default 1). With `usdPerToken` (> 0) and a task
   * that sets `budget.max_cost_usd`, the dollars left bound the grant too, and the grant's cost at
   * that rate is held. Null when the task is missing.
   */
  reserveTokens(tenant: TenantScope, taskId: string, want: number, share?: number, usdPerToken?: number): Promise<TokenGrant | null>
  /**
   * Releases a hold and charges what the call really spent (which may exceed the hold by a reply's
   * overrun); `cost` does the same for the task's spending in dollars.
   */
  settleTokens(tenant: TenantScope, taskId: string, reserved: number, used: number, cost?: CostSettlement): Promise<void>
  /**
   * The tenant's tasks that are not final (`ACTIVE_STATUSES`), counted up to `atMost` (the count
   * stops there, so it costs at most that many index entries).
   */
  countActive(tenant: string, atMost: number): Promise<number>
  /**
   * The task a used idempotency key names, as `create` would replay it; null when the key is unused.
   * @throws IdempotencyConflict when the key was used with a different `requestHash`.
   */
  replayOf(tenant: string, idempotencyKey: string, requestHash: string): Promise<CreateResult | null>
  /**
   * Replaces the unfinished part of a plan after a failed validation: pending and failed steps become
   * `skipped` (the failure kept in their error), `steps` are appended, `replans` + 1, and a
   * `task.replanned` event records `reason`. False when the task is not running or has re-planned
   * `maxReplans` times already.
   */
  replan(tenant: TenantScope, taskId: string, steps: readonly NewStep[], reason: string, maxReplans: number): Promise<boolean>
  /** Appends one event with the task's next seq. Null when the task does not exist. */
  appendEvent(tenant: TenantScope, taskId: string, event: EventInput): Promise<TaskEvent | null>
  /** Events with seq > afterSeq in order, at most `limit` (SSE resume from Last-Event-ID). */
  eventsAfter(tenant: TenantScope, taskId: string, afterSeq: number, limit: number): Promise<TaskEvent[]>
}

/** The idempotency key exists with a different request body (HTTP 409 CONFLICT). */
export class IdempotencyConflict extends Error {
  readonly code = 'IDEMPOTENCY_CONFLICT'
  constructor(
    readonly idempotencyKey: string,
    readonly taskId: string,
  ) {
    super(`idempotency key ${JSON.stringify(idempotencyKey)} was used with a different request`)
    this.name = 'IdempotencyConflict'
  }
}
