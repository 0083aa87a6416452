/**
 * The task store on the SQL port: the same statements on PGlite and PostgreSQL.
 *
 * ```ts
 * const store = new SqlTaskStore(await openSql({ databaseUrl, dataDir }))
 * ```
 *
 * Tenants: each method's first statement on the task (its row lock, the read, the UPDATE) filters
 * by the tenant scope; statements after a lock was taken that way go by task id alone, since the
 * lock already proved whose task it is. Steps and events have no tenant of their own: they are
 * reached through their task's row.
 *
 * Concurrency: every write locks the task row first (`select … for update`, or an UPDATE of it) and
 * only then touches steps and events, so writers of one task queue up on that row, in one order, and
 * cannot deadlock each other. Event numbers come from `tasks.event_seq`, bumped by the UPDATE that
 * holds the lock, which makes them gap-free and strictly increasing per task under any concurrency.
 */
import type { Sql } from './sql.js'
import {
  ACTIVE_STATUSES,
  FINAL_STATUSES,
  isFinal,
  type StepStatus,
  type StoredTask,
  type TaskEvent,
  type TaskOrigin,
  type TaskStatus,
  type TaskStep,
  type TaskUsage,
} from './task.js'
import {
  type ClaimOptions,
  type CostSettlement,
  type CreateOptions,
  type CreateResult,
  type EventInput,
  IdempotencyConflict,
  type ListQuery,
  type NewStep,
  type NewTask,
  type StepClaim,
  type StepMove,
  type StepPatch,
  type TaskPatch,
  type TaskSortKey,
  type TaskStore,
  type TokenGrant,
} from './task-store.js'
import { type TenantScope, tenantFilter } from './tenant.js'

const EMPTY_USAGE: TaskUsage = { llm_tokens: { prompt: 0, completion: 0, total: 0 }, arm_calls: 0 }

const FINAL_STEP: readonly StepStatus[] = ['completed', 'failed', 'skipped', 'cancelled']

const SORT_COLUMNS: Record<TaskSortKey, string> = {
  created_at: 't.created_at',
  updated_at: 't.updated_at',
  status: 't.status',
  priority: 't.priority_rank',
}

// The record's plan is assembled in SQL so one round trip returns a whole task.
const STEP_JSON = `jsonb_build_object(
  'step_id', s.step_id, 'action', s.action, 'arm', s.arm, 'tool', s.tool, 'input', s.input,
  'depends_on', s.depends_on, 'status', s.status, 'attempts', s.attempts, 'started_at', s.started_at,
  'completed_at', s.completed_at, 'output', s.output, 'error', s.error, 'provenance', s.provenance)`

/** The plan of the task row `t`, as `p.steps`. */
const STEPS_OF_T = `left join lateral (
      select jsonb_agg(${STEP_JSON} order by s.position) as steps
        from task_steps s where s.task_id = t.task_id
    ) p on true`

const TASK_SELECT = `
  select t.*, coalesce(p.steps, '[]'::jsonb) as steps
    from tasks t
    ${STEPS_OF_T}`

interface TaskRow {
  task_id: string
  tenant: string
  status: TaskStatus
  goal: string
  constraints: StoredTask['constraints']
  context: unknown
  acceptance_criteria: string[]
  budget: StoredTask['budget']
  priority: StoredTask['priority']
  metadata: Record<string, unknown>
  result: unknown
  error: StoredTask['error']
  usage: TaskUsage | null
  cached: boolean
  user_id: string | null
  client_ip: string | null
  reason: string | null
  cancel_requested_at: Date | string | null
  deadline_at: Date | string | null
  created_at: Date | string
  updated_at: Date | string
  started_at: Date | string | null
  completed_at: Date | string | null
  version: number | string
  replans: number
  origin: TaskOrigin | null
  steps: StepJson[]
}

// Timestamps arrive as strings inside the jsonb plan and as Date from a plain `returning *`.
interface StepJson extends Omit<TaskStep, 'started_at' | 'completed_at'> {
  started_at: Date | string | null
  completed_at: Date | string | null
}

interface StepRow extends StepJson {
  executions: number
}

interface EventRow {
  task_id: string
  seq: number | string // bigint: a number from PGlite, a string from pg
  type: string
  data: Record<string, unknown>
  created_at: Date | string
}

function iso(value: Date | string): string
function iso(value: Date | string | null): string | null
function iso(value: Date | string | null): string | null {
  if (value === null) return null
  // jsonb renders timestamptz as "2026-01-02T03:04:05.678+00:00"; the record wants one format.
  return (value instanceof Date ? value : new Date(value)).toISOString()
}

function toStep(s: StepJson): TaskStep {
  return {
    step_id: s.step_id,
    action: s.action,
    arm: s.arm,
    tool: s.tool ?? null,
    input: s.input ?? {},
    depends_on: s.depends_on,
    status: s.status,
    attempts: Number(s.attempts),
    started_at: iso(s.started_at),
    completed_at: iso(s.completed_at),
    output: s.output ?? null,
    error: s.error ?? null,
    provenance: s.provenance ?? null,
  }
}

function toTask(row: TaskRow): StoredTask {
  const steps = row.steps.map(toStep)
  const completed = steps.filter((s) => s.status === 'completed' || s.status === 'skipped').length
  return {
    task_id: row.task_id,
    status: row.status,
    goal: row.goal,
    constraints: row.constraints,
    priority: row.priority,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    started_at: iso(row.started_at),
    completed_at: iso(row.completed_at),
    plan: { steps },
    result: row.result ?? null,
    error: row.error ?? null,
    usage: row.usage ?? EMPTY_USAGE,
    cached: row.cached,
    progress: {
      completed_steps: completed,
      total_steps: steps.length,
      percentage: steps.length === 0 ? 0 : Math.floor((completed / steps.length) * 100),
    },
    context: row.context ?? null,
    acceptance_criteria: row.acceptance_criteria,
    budget: row.budget,
    metadata: row.metadata,
    tenant: row.tenant,
    user_id: row.user_id,
    client_ip: row.client_ip,
    reason: row.reason,
    cancel_requested_at: iso(row.cancel_requested_at),
    deadline_at: iso(row.deadline_at),
    version: Number(row.version),
    replans: Number(row.replans),
    origin: row.origin ?? null,
  }
}

function toEvent(row: EventRow): TaskEvent {
  return { task_id: row.task_id, seq: Number(row.seq), type: row.type, data: row.data, created_at: iso(row.created_at) }
}

interface ReserveRow {
  used: number | string
  reserved: number | string
  lim: number | string | null
  max_cost: number | null
  cost_used: number
  cost_reserved: number
}

/** Tokens the dollars left of a cost budget buy at `usdPerToken`; null when no cost budget applies. */
function costRoomOf(row: ReserveRow, usdPerToken: number): number | null {
  if (row.max_cost === null || !(usdPerToken > 0)) return null
  const left = Number(row.max_cost) - Number(row.cost_used) - Number(row.cost_reserved)
  // The small allowance keeps a binary fraction (0.05 / 0.001 = 49.999…) from losing a whole token.
  return Math.max(0, Math.floor(left / usdPerToken + 1e-9))
}

const json = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value))

/** Options of a SqlTaskStore. */
export interface SqlTaskStoreOptions {
  /**
   * Runs inside the transaction that gives a task its final status (a move, or a task created
   * final), with the task as it now stands: what it writes commits with the status (webhooks).
   */
  onFinal?: (tx: Sql, task: StoredTask) => Promise<void>
}

export class SqlTaskStore implements TaskStore {
  constructor(
    private readonly sql: Sql,
    private readonly options: SqlTaskStoreOptions = {},
  ) {}

  create(task: NewTask, options: CreateOptions = {}): Promise<CreateResult> {
    const { idempotencyKey, requestHash = '', enqueue } = options
    return this.sql.transaction(async (tx) => {
      // One statement: the key (if any), the task row and its task.created event. The key is claimed
      // first, so a concurrent duplicate blocks on it until this transaction ends, and inserts nothing.
      const { rows } = await tx.query<TaskRow>(
        insertTasksSql(idempotencyKey !== undefined),
        idempotencyKey === undefined ? [taskJson([task])] : [taskJson([task]), idempotencyKey, requestHash, task.task_id, task.tenant],
      )
      const row = rows[0]
      if (!row) return this.replay(tx, task.tenant, idempotencyKey ?? '', requestHash)
      if (enqueue) await enqueue(tx)
      const created = toTask(row)
      if (isFinal(created.status)) await this.options.onFinal?.(tx, created)
      return { task: created, replayed: false }
    })
  }

  createBatch(tasks: readonly NewTask[], enqueue?: (tx: Sql) => Promise<void>): Promise<StoredTask[]> {
    if (tasks.length === 0) return Promise.resolve([])
    return this.sql.transaction(async (tx) => {
      const { rows } = await tx.query<TaskRow>(insertTasksSql(false), [taskJson(tasks)])
      if (enqueue) await enqueue(tx)
      // `returning` promises no order: match the rows back to the input by id.
      const byId = new Map(rows.map((r) => [r.task_id, r]))
      return tasks.map((t) => {
        const row = byId.get(t.task_id)
        if (!row) throw new Error(`task ${t.task_id} missing right after insert`)
        return toTask(row)
      })
    })
  }

  /** The key was taken in this tenant: the same request gets its original task back, another one a conflict. */
  private async replay(tx: Sql, tenant: string, idempotencyKey: string, requestHash: string): Promise<CreateResult> {
    const { rows } = await tx.query<{ request_hash: string; task_id: string }>(
      'select request_hash, task_id from idempotency_keys where tenant = $1 and key = $2',
      [tenant, idempotencyKey],
    )
    const prior = rows[0]
    if (!prior) throw new Error(`idempotency key ${idempotencyKey} vanished during create`)
    if (prior.request_hash !== requestHash) throw new IdempotencyConflict(idempotencyKey, prior.task_id)
    const original = await this.getIn(tx, tenant, prior.task_id)
    if (!original) throw new Error(`idempotency key ${idempotencyKey} names a missing task`)
    return { task: original, replayed: true }
  }

  get(tenant: TenantScope, taskId: string): Promise<StoredTask | null> {
    return this.getIn(this.sql, tenant, taskId)
  }

  async list(tenant: TenantScope, query: ListQuery): Promise<{ items: StoredTask[]; total: number }> {
    const column = SORT_COLUMNS[query.sortBy ?? 'created_at']
    const order = query.order === 'asc' ? 'asc' : 'desc'
    const filter: unknown[] = [query.status ?? null, query.userId ?? null]
    const where = `where ($1::text is null or t.status = $1) and ($2::text is null or t.user_id = $2)${tenantFilter(tenant, 't.tenant', filter)}`
    const n = filter.length
    const [page, count] = await Promise.all([
      this.sql.query<TaskRow>(
        `${TASK_SELECT} ${where}
          order by ${column} ${order}, t.created_at ${order}, t.task_id ${order}
          limit $${n + 1} offset $${n + 2}`,
        [...filter, query.limit, query.offset],
      ),
      this.sql.query<{ total: number | string }>(`select count(*) as total from tasks t ${where}`, filter),
    ])
    return { items: page.rows.map(toTask), total: Number(count.rows[0]?.total ?? 0) }
  }

  transition(
    tenant: TenantScope,
    taskId: string,
    from: readonly TaskStatus[],
    to: TaskStatus,
    patch: TaskPatch = {},
    event?: EventInput,
  ): Promise<StoredTask | null> {
    return this.sql.transaction(async (tx) => {
      const current = await lockTask(tx, tenant, taskId)
      // Final is final, whatever `from` says.
      if (current === null || isFinal(current) || !from.includes(current)) return null
      return this.moveIn(tx, taskId, current, to, patch, event)
    })
  }

  requestCancel(tenant: TenantScope, taskId: string): Promise<StoredTask | null> {
    return this.sql.transaction(async (tx) => {
      const current = await lockTask(tx, tenant, taskId)
      if (current === null) return null
      if (isFinal(current) || current === 'cancelling') return this.getIn(tx, tenant, taskId)
      // Nothing runs a queued task yet, so it can end now; a worker that later picks up its job
      // finds it cancelled and drops it.
      const to: TaskStatus = current === 'queued' ? 'cancelled' : 'cancelling'
      await tx.query('update tasks set cancel_requested_at = coalesce(cancel_requested_at, now()) where task_id = $1', [taskId])
      return this.moveIn(tx, taskId, current, to, {})
    })
  }

  upsertSteps(tenant: TenantScope, taskId: string, steps: readonly NewStep[]): Promise<boolean> {
    return this.sql.transaction(async (tx) => {
      const current = await lockTask(tx, tenant, taskId)
      if (current === null || isFinal(current)) return false
      await insertSteps(tx, taskId, steps, 0)
      await appendEvents(tx, taskId, [{ type: 'task.plan', data: { total_steps: steps.length } }], { touch: true })
      return true
    })
  }

  replan(tenant: TenantScope, taskId: string, steps: readonly NewStep[], reason: string, maxReplans: number): Promise<boolean> {
    return this.sql.transaction(async (tx) => {
      const params: unknown[] = [taskId]
      const { rows } = await tx.query<{ status: TaskStatus; replans: number }>(
        `select status, replans from tasks where task_id = $1${tenantFilter(tenant, 'tenant', params)} for update`,
        params,
      )
      const task = rows[0]
      if (task?.status !== 'running' || task.replans >= maxReplans) return false
      const { rows: superseded } = await tx.query<{ step_id: string; position: number }>(
        `update task_steps set status = 'skipped', completed_at = coalesce(completed_at, now()), updated_at = now()
          where task_id = $1 and status in ('pending', 'failed') returning step_id, position`,
        [taskId],
      )
      const { rows: last } = await tx.query<{ n: number | string | null }>('select max(position) as n from task_steps where task_id = $1', [
        taskId,
      ])
      await insertSteps(tx, taskId, steps, Number(last[0]?.n ?? -1) + 1)
      await tx.query('update tasks set replans = replans + 1, updated_at = now(), version = version + 1 where task_id = $1', [taskId])
      superseded.sort((a, b) => a.position - b.position)
      await appendEvents(tx, taskId, [
        ...superseded.map((s) => ({ type: 'step.skipped', data: { step_id: s.step_id, status: 'skipped', superseded: true } })),
        { type: 'task.replanned', data: { reason, replans: task.replans + 1, total_steps: steps.length } },
      ])
      return true
    })
  }

  reserveTokens(tenant: TenantScope, taskId: string, want: number, share = 1, usdPerToken = 0): Promise<TokenGrant | null> {
    return this.sql.transaction(async (tx) => {
      // The budget is the smaller of the two places a client may set it; `least` skips nulls.
      const params: unknown[] = [taskId]
      const { rows } = await tx.query<ReserveRow>(
        `select tokens_used as used, tokens_reserved as reserved,
                least(case when jsonb_typeof(constraints) = 'object' then (constraints->>'max_tokens')::bigint end,
                      (budget->>'max_tokens')::bigint) as lim,
                (budget->>'max_cost_usd')::float8 as max_cost, cost_used_usd as cost_used, cost_reserved_usd as cost_reserved
           from tasks where task_id = $1${tenantFilter(tenant, 'tenant', params)} for update`,
        params,
      )
      const row = rows[0]
      if (!row) return null
      const used = Number(row.used)
      const costRoom = costRoomOf(row, usdPerToken)
      if (row.lim === null && costRoom === null) return { granted: null, limit: null, used }
      const limit = row.lim === null ? null : Number(row.lim)
      const tokenRoom = limit === null ? Number.POSITIVE_INFINITY : Math.max(0, limit - used - Number(row.reserved))
      const available = Math.min(tokenRoom, costRoom ?? Number.POSITIVE_INFINITY)
      const granted = Math.min(want, Math.ceil(available / Math.max(1, share)))
      const heldUsd = costRoom === null ? 0 : granted * usdPerToken
      if (granted > 0) {
        await tx.query(
          'update tasks set tokens_reserved = tokens_reserved + $2, cost_reserved_usd = cost_reserved_usd + $3 where task_id = $1',
          [taskId, granted, heldUsd],
        )
      }
      return costRoom === null ? { granted, limit, used } : { granted, limit, used, heldUsd }
    })
  }

  async settleTokens(tenant: TenantScope, taskId: string, reserved: number, used: number, cost?: CostSettlement): Promise<void> {
    const params: unknown[] = [taskId, reserved, used, cost?.heldUsd ?? 0, cost?.spentUsd ?? 0]
    await this.sql.query(
      `update tasks set tokens_reserved = greatest(0, tokens_reserved - $2), tokens_used = tokens_used + $3,
                        cost_reserved_usd = greatest(0, cost_reserved_usd - $4), cost_used_usd = cost_used_usd + $5
        where task_id = $1${tenantFilter(tenant, 'tenant', params)}`,
      params,
    )
  }

  async countActive(tenant: string, atMost: number): Promise<number> {
    // Served by tasks_tenant_status_created_idx (tenant, status, …); the limit bounds the scan.
    const { rows } = await this.sql.query<{ n: number | string }>(
      'select count(*) as n from (select 1 from tasks where tenant = $1 and status = any($2::text[]) limit $3) active',
      [tenant, ACTIVE_STATUSES, atMost],
    )
    return Number(rows[0]?.n ?? 0)
  }

  async replayOf(tenant: string, idempotencyKey: string, requestHash: string): Promise<CreateResult | null> {
    return this.sql.transaction(async (tx) => {
      const { rows } = await tx.query<{ n: number | string }>('select count(*) as n from idempotency_keys where tenant = $1 and key = $2', [
        tenant,
        idempotencyKey,
      ])
      if (Number(rows[0]?.n ?? 0) === 0) return null
      return this.replay(tx, tenant, idempotencyKey, requestHash)
    })
  }

  async startStep(
    tenant: TenantScope,
    taskId: string,
    stepId: string,
    from: readonly StepStatus[] = ['pending'],
  ): Promise<TaskStep | null> {
    const claim = await this.claimStep(tenant, taskId, stepId, { from })
    return claim.outcome === 'started' ? claim.step : null
  }

  claimStep(tenant: TenantScope, taskId: string, stepId: string, options: ClaimOptions = {}): Promise<StepClaim> {
    const { from = ['pending'], maxRunning, staleAfterSeconds, taskFrom } = options
    return this.sql.transaction(async (tx): Promise<StepClaim> => {
      const current = await lockTask(tx, tenant, taskId)
      if (current === null || isFinal(current) || current === 'cancelling' || (taskFrom && !taskFrom.includes(current))) {
        return { outcome: 'unavailable', status: current }
      }
      if (maxRunning !== undefined) {
        // Counted while holding the task row lock: every claim of this task queues on that lock, so
        // two processes can never both see room for one more.
        const { rows: counted } = await tx.query<{ n: number | string }>(
          "select count(*) as n from task_steps where task_id = $1 and status = 'running' and step_id <> $2",
          [taskId, stepId],
        )
        const running = Number(counted[0]?.n ?? 0)
        if (running >= maxRunning) return { outcome: 'busy', running }
      }
      const { rows } = await tx.query<StepRow>(
        `update task_steps
            set status = 'running', attempts = attempts + 1, executions = executions + 1,
                started_at = now(), completed_at = null, error = null, updated_at = now()
          where task_id = $1 and step_id = $2 and status = any($3::text[])
            and (status <> 'running' or $4::float8 is null or started_at <= now() - $4::float8 * interval '1 second')
          returning *`,
        [taskId, stepId, [...from], staleAfterSeconds ?? null],
      )
      const row = rows[0]
      if (!row) return { outcome: 'unavailable', status: current }
      const task = await appendEventAndRead(tx, taskId, {
        type: 'step.started',
        data: { step_id: stepId, arm: row.arm, attempt: row.attempts },
      })
      return { outcome: 'started', step: toStep(row), task }
    })
  }

  async updateStep(
    tenant: TenantScope,
    taskId: string,
    stepId: string,
    from: readonly StepStatus[],
    to: StepStatus,
    patch: StepPatch = {},
  ): Promise<TaskStep | null> {
    return (await this.changeStep(tenant, taskId, stepId, from, to, patch, false))?.step ?? null
  }

  async moveStep(
    tenant: TenantScope,
    taskId: string,
    stepId: string,
    from: readonly StepStatus[],
    to: StepStatus,
    patch: StepPatch = {},
  ): Promise<StepMove | null> {
    const moved = await this.changeStep(tenant, taskId, stepId, from, to, patch, true)
    return moved && { step: moved.step, task: moved.task! }
  }

  /** updateStep, and with `read` moveStep: the event's statement also reads the task back. */
  private changeStep(
    tenant: TenantScope,
    taskId: string,
    stepId: string,
    from: readonly StepStatus[],
    to: StepStatus,
    patch: StepPatch,
    read: boolean,
  ): Promise<{ step: TaskStep; task?: StoredTask } | null> {
    return this.sql.transaction(async (tx) => {
      if ((await lockTask(tx, tenant, taskId)) === null) return null
      const { rows } = await tx.query<StepRow>(
        `update task_steps
            set status = $4,
                output = case when $5::boolean then $6::jsonb else output end,
                error = case when $7::boolean then $8::jsonb else error end,
                completed_at = case when $9::boolean then now() else completed_at end,
                provenance = case when $10::boolean then $11::jsonb else provenance end,
                updated_at = now()
          where task_id = $1 and step_id = $2 and status = any($3::text[])
          returning *`,
        [
          taskId,
          stepId,
          [...from],
          to,
          'output' in patch,
          json(patch.output ?? null),
          'error' in patch,
          json(patch.error ?? null),
          FINAL_STEP.includes(to),
          'provenance' in patch,
          json(patch.provenance ?? null),
        ],
      )
      const row = rows[0]
      if (!row) return null
      const event = { type: `step.${to}`, data: { step_id: stepId, status: to, ...(patch.error ? { error: patch.error } : {}) } }
      if (!read) {
        await appendEvents(tx, taskId, [event], { touch: true })
        return { step: toStep(row) }
      }
      return { step: toStep(row), task: await appendEventAndRead(tx, taskId, event) }
    })
  }

  async appendEvent(tenant: TenantScope, taskId: string, event: EventInput): Promise<TaskEvent | null> {
    const [appended] = await appendEvents(this.sql, taskId, [event], { tenant })
    return appended ?? null
  }

  async eventsAfter(tenant: TenantScope, taskId: string, afterSeq: number, limit: number): Promise<TaskEvent[]> {
    const params: unknown[] = [taskId, afterSeq, limit]
    // Events have no tenant of their own: they are their task's, found through its row.
    const { rows } = await this.sql.query<EventRow>(
      `select e.* from task_events e join tasks t on t.task_id = e.task_id
        where e.task_id = $1 and e.seq > $2${tenantFilter(tenant, 't.tenant', params)}
        order by e.seq limit $3`,
      params,
    )
    return rows.map(toEvent)
  }

  private async getIn(sql: Sql, tenant: TenantScope, taskId: string): Promise<StoredTask | null> {
    const params: unknown[] = [taskId]
    const { rows } = await sql.query<TaskRow>(`${TASK_SELECT} where t.task_id = $1${tenantFilter(tenant, 't.tenant', params)}`, params)
    return rows[0] ? toTask(rows[0]) : null
  }

  /** The row is locked and known to be in `current`; writes the move and its events. */
  private async moveIn(
    tx: Sql,
    taskId: string,
    current: TaskStatus,
    to: TaskStatus,
    patch: TaskPatch,
    event?: EventInput,
  ): Promise<StoredTask | null> {
    const params: unknown[] = [taskId, to, [...FINAL_STATUSES]]
    const sets = [
      'status = $2',
      'version = version + 1',
      'updated_at = now()',
      `started_at = case when $2 = 'running' then coalesce(started_at, now()) else started_at end`,
      'completed_at = case when $2 = any($3::text[]) then coalesce(completed_at, now()) else completed_at end',
    ]
    const jsonColumns = ['result', 'error', 'usage'] as const
    for (const column of jsonColumns) {
      if (column in patch) {
        params.push(json(patch[column] ?? null))
        sets.push(`${column} = $${params.length}::jsonb`)
      }
    }
    const plainColumns = { cached: 'boolean', reason: 'text', deadline_at: 'timestamptz' } as const
    for (const [column, type] of Object.entries(plainColumns)) {
      if (column in patch) {
        params.push(patch[column as keyof typeof plainColumns] ?? null)
        sets.push(`${column} = $${params.length}::${type}`)
      }
    }
    if (patch.settlePending) {
      const { rows: settled } = await tx.query<{ step_id: string; position: number }>(
        `update task_steps set status = $2, completed_at = now(), updated_at = now()
          where task_id = $1 and status = 'pending' returning step_id, position`,
        [taskId, patch.settlePending],
      )
      settled.sort((a, b) => a.position - b.position)
      await appendEvents(
        tx,
        taskId,
        settled.map((s) => ({
          type: `step.${patch.settlePending}`,
          data: { step_id: s.step_id, status: patch.settlePending },
        })),
      )
    }
    const data: Record<string, unknown> = { from: current, status: to }
    if (patch.error) data.error = patch.error
    const events = event ? [{ type: 'task.status', data }, event] : [{ type: 'task.status', data }]
    // One statement: the move, its events (numbered after any above) and the task as it now stands.
    params.push(JSON.stringify(events.map((e) => ({ type: e.type, data: e.data ?? {} }))))
    const eventsParam = `$${params.length}::jsonb`
    const { rows } = await tx.query<TaskRow>(
      `with t as (
         update tasks set ${sets.join(', ')}, event_seq = event_seq + jsonb_array_length(${eventsParam})
          where task_id = $1 returning *
       ),
       e as (
         insert into task_events (task_id, seq, type, data)
         select t.task_id, t.event_seq - jsonb_array_length(${eventsParam}) + x.ord, x.ev->>'type', x.ev->'data'
           from t cross join lateral jsonb_array_elements(${eventsParam}) with ordinality as x(ev, ord)
       )
       select t.*, coalesce(p.steps, '[]'::jsonb) as steps
         from t
         ${STEPS_OF_T}`,
      params,
    )
    const moved = rows[0] ? toTask(rows[0]) : null
    if (moved !== null && isFinal(to)) await this.options.onFinal?.(tx, moved)
    return moved
  }
}

/**
 * Inserts tasks (one or many, from a jsonb array: one parameter whatever the count) with their
 * `task.created` events, and returns the rows as inserted, so the record needs no second read.
 * Keyed (one task only): $2 key, $3 request hash, $4 task id, $5 tenant; when the key is taken in the tenant nothing is
 * inserted and no row comes back. The key's foreign key is deferred, so it may go in first.
 * JSON null and SQL null differ in a jsonb column: `context` and `result` keep storing JSON null, as
 * the one-row insert always did.
 */
function insertTasksSql(keyed: boolean): string {
  return `
    with ${
      keyed
        ? `claimed as (
      insert into idempotency_keys (tenant, key, request_hash, task_id) values ($5, $2, $3, $4)
      on conflict (tenant, key) do nothing
      returning key
    ),`
        : ''
    }
    input as (
      select * from jsonb_to_recordset($1::jsonb) as x(
        task_id text, tenant text, status text, goal text, constraints jsonb, context jsonb, acceptance_criteria jsonb,
        budget jsonb, priority text, metadata jsonb, user_id text, client_ip text, reason text,
        deadline_at timestamptz, result jsonb, cached boolean, final boolean, origin jsonb)
      ${keyed ? 'where exists (select 1 from claimed)' : ''}
    ),
    inserted as (
      insert into tasks (task_id, tenant, status, goal, constraints, context, acceptance_criteria, budget, priority,
                         metadata, user_id, client_ip, reason, deadline_at, result, cached, completed_at, event_seq, origin)
      select task_id, tenant, status, goal, constraints, coalesce(context, 'null'::jsonb), acceptance_criteria, budget,
             priority, metadata, user_id, client_ip, reason, deadline_at, coalesce(result, 'null'::jsonb), cached,
             case when final then now() end, 1, origin
        from input
      returning *
    ),
    events as (
      insert into task_events (task_id, seq, type, data)
      select task_id, 1, 'task.created', jsonb_build_object('status', status, 'priority', priority) from inserted
    )
    select inserted.*, '[]'::jsonb as steps from inserted`
}

/** The rows for insertTasksSql, defaults filled in as the columns had them. */
function taskJson(tasks: readonly NewTask[]): string {
  return JSON.stringify(
    tasks.map((task) => {
      const status = task.status ?? 'queued'
      return {
        task_id: task.task_id,
        tenant: task.tenant,
        status,
        goal: task.goal,
        constraints: task.constraints ?? {},
        context: task.context ?? null,
        acceptance_criteria: task.acceptance_criteria ?? [],
        budget: task.budget ?? {},
        priority: task.priority ?? 'medium',
        metadata: task.metadata ?? {},
        user_id: task.user_id ?? null,
        client_ip: task.client_ip ?? null,
        reason: task.reason ?? null,
        deadline_at: task.deadline_at ?? null,
        result: task.result ?? null,
        cached: task.cached ?? false,
        final: isFinal(status),
        origin: task.origin ?? null,
      }
    }),
  )
}

/**
 * Inserts (or, while still pending, rewrites) steps at positions from `first` on: one statement for
 * the whole plan, the steps passed as one jsonb array.
 */
async function insertSteps(tx: Sql, taskId: string, steps: readonly NewStep[], first: number): Promise<void> {
  if (steps.length === 0) return
  const rows = steps.map((step, i) => ({
    step_id: step.step_id,
    position: first + i,
    action: step.action,
    arm: step.arm,
    tool: step.tool ?? null,
    input: step.input ?? {},
    depends_on: step.depends_on ?? [],
  }))
  await tx.query(
    `insert into task_steps (task_id, step_id, position, action, arm, tool, input, depends_on)
     select $1, x.step_id, x.position, x.action, x.arm, x.tool, x.input, x.depends_on
       from jsonb_to_recordset($2::jsonb) as x(step_id text, position int, action text, arm text, tool text,
                                               input jsonb, depends_on jsonb)
      order by x.position
     on conflict (task_id, step_id) do update
       set position = excluded.position, action = excluded.action, arm = excluded.arm, tool = excluded.tool,
           input = excluded.input, depends_on = excluded.depends_on, updated_at = now()
       where task_steps.status = 'pending'`,
    [taskId, JSON.stringify(rows)],
  )
}

/** Locks the task row when it is in `tenant`; its status, or null when there is no such task there. */
async function lockTask(tx: Sql, tenant: TenantScope, taskId: string): Promise<TaskStatus | null> {
  const params: unknown[] = [taskId]
  const { rows } = await tx.query<{ status: TaskStatus }>(
    `select status from tasks where task_id = $1${tenantFilter(tenant, 'tenant', params)} for update`,
    params,
  )
  return rows[0]?.status ?? null
}

/**
 * Each event is one statement that bumps tasks.event_seq and inserts with the new value, so it is
 * atomic on its own and ordered by the row lock when several writers append at once. `touch` also
 * marks the task changed (updated_at, version) in the first event's statement, for writes that
 * change only its steps: one statement instead of a separate update. `tenant`: only when the task
 * is in it (callers that hold the row lock, taken with the tenant, leave it out).
 */
async function appendEvents(
  sql: Sql,
  taskId: string,
  events: readonly EventInput[],
  options: { touch?: boolean; tenant?: TenantScope } = {},
): Promise<TaskEvent[]> {
  const out: TaskEvent[] = []
  for (const [i, event] of events.entries()) {
    const touch = options.touch === true && i === 0
    const params: unknown[] = [taskId, event.type, json(event.data ?? {})]
    const scoped = options.tenant === undefined ? '' : tenantFilter(options.tenant, 'tenant', params)
    const { rows } = await sql.query<EventRow>(
      `with next as (
         update tasks set event_seq = event_seq + 1${touch ? TOUCH : ''} where task_id = $1${scoped} returning task_id, event_seq
       )
       insert into task_events (task_id, seq, type, data)
       select task_id, event_seq, $2, $3::jsonb from next
       returning *`,
      params,
    )
    if (rows[0]) out.push(toEvent(rows[0]))
  }
  return out
}

const TOUCH = ', updated_at = now(), version = version + 1'

/**
 * Inside a transaction that changed a step of the task (row locked): touches the task, appends
 * `event` and returns the task as it now stands, all in one statement. The task columns come from
 * the update's `returning`; the steps are read by the same statement, whose snapshot includes this
 * transaction's step change, and no other writer can change them while the task row is locked.
 */
async function appendEventAndRead(tx: Sql, taskId: string, event: EventInput): Promise<StoredTask> {
  const { rows } = await tx.query<TaskRow>(
    `with t as (
       update tasks set event_seq = event_seq + 1${TOUCH} where task_id = $1 returning *
     ),
     e as (
       insert into task_events (task_id, seq, type, data) select task_id, event_seq, $2, $3::jsonb from t
     )
     select t.*, coalesce(p.steps, '[]'::jsonb) as steps
       from t
       ${STEPS_OF_T}`,
    [taskId, event.type, json(event.data ?? {})],
  )
  const row = rows[0]
  if (!row) throw new Error(`task ${taskId} vanished while its row was locked`)
  return toTask(row)
}
