/**
 * What the task API does, apart from HTTP: screen the task's text through the reflex detector, answer a
 * repeated task from the cache, create the task (and its jobs) in one transaction, read, list and
 * cancel. The lifecycle after creation belongs to the runner (`runner/`).
 *
 * Screening decisions:
 * - Every free-text field is screened (task-texts.ts: the goal, criteria, and the strings inside
 *   constraints, context and metadata). An injection at or above the block level in any of them
 *   creates the task `rejected`, with its reason naming the field, and a `guardrail.injection`
 *   event `{ field, severity, families, rejected: true }`.
 * - Personal data is redacted from everything that leaves for an arm or a model (the runner works
 *   from the redacted goal) and from logs; the stored record keeps the client's own goal.
 * - Only tasks with nothing but a goal (no constraints, context, criteria or budget of their own)
 *   are answered from the cache: any of those can change the answer, and the cache key sees only
 *   the goal. The default token budget every task gets counts as none.
 * - Quotas (quotas.ts): a budget over the maximum is refused before anything else; the active-task
 *   cap is checked only for a task that will run, so a refused task and a cached answer always get
 *   through, and an idempotent replay is answered even at the cap.
 */
import { randomUUID } from 'node:crypto'
import type { AnswerKeys, Detector } from '@ganglion/reflex'
import { HttpError } from '../http/errors.js'
import { CacheError, type CacheStore } from '../stores/cache-store.js'
import { requestHash } from '../stores/request-hash.js'
import type { Sql } from '../stores/sql.js'
import type { StoredTask, TaskBudget, TaskOrigin } from '../stores/task.js'
import type { NewTask, TaskStore } from '../stores/task-store.js'
import { CreateBatcher, type CreateBatcherOptions } from './create-batcher.js'
import type { JobQueue } from './queue/job-queue.js'
import { activeCapReached, boundedBudget, type TaskQuotas } from './quotas.js'
import { enqueueTask, enqueueTasks } from './runner/queues.js'
import type { CreateTaskRequest } from './schemas.js'
import { type TaskText, taskTexts } from './task-texts.js'

export interface TaskServiceDeps {
  store: TaskStore
  queue: JobQueue
  detector: Detector
  cache: CacheStore
  /** Where tenants' answers live in `cache` (keyed by the exact goal). */
  answerKeys: AnswerKeys
  /** TASK_TIMEOUT, seconds: the longest any task may run. */
  taskTimeoutSeconds: number
  /** CACHE_TTL, seconds: how long a completed result answers repeats. */
  cacheTtlSeconds: number
  /** Active tasks per tenant, token budgets, cost budgets (quotas.ts). */
  quotas: TaskQuotas
  /** Group commit of key-less submissions (create-batcher.ts); false: one transaction each. */
  batch?: CreateBatcherOptions | false
  /** A task's `webhook_url`: checked before anything is stored, kept in the create transaction. Unset: refused. */
  webhooks?: TaskWebhooks
}

/** What the service needs of webhooks (src/webhooks/). */
export interface TaskWebhooks {
  /** A 400 on `field` for a URL of the wrong form or an address the policy refuses. */
  check(url: string, field: string): Promise<void>
  save(tx: Sql, taskId: string, url: string): Promise<void>
}

export interface CreateMeta {
  /** The tenant the task is created in (request-scope.ts). */
  tenant: string
  idempotencyKey?: string | undefined
  userId?: string | undefined
  clientIp?: string | undefined
  /** The submitting request's id and trace context (telemetry/task-trace.ts). */
  origin?: TaskOrigin | undefined
}

export interface CreateOutcome {
  task: StoredTask
  replayed: boolean
}

/** The flags the goal is checked with, and its stored answer keyed with. */
const GOAL_FLAGS = { checkPii: true, checkInjection: true } as const

export class TaskService {
  private readonly batcher: CreateBatcher | undefined

  constructor(private readonly deps: TaskServiceDeps) {
    if (deps.batch !== false) {
      this.batcher = new CreateBatcher(deps.store, (tx, jobs) => enqueueTasks(deps.queue, tx, jobs), deps.batch)
    }
  }

  async create(req: CreateTaskRequest, meta: CreateMeta): Promise<CreateOutcome> {
    const { store, queue, detector } = this.deps
    const saveUrl = await this.webhookSaver(req)
    const screening = screen(detector, taskTexts(req))
    const timeout = timeoutSeconds(req, this.deps.taskTimeoutSeconds)
    const constraints = req.constraints ?? {}
    const budget: TaskBudget = boundedBudget(normaliseBudget(req.budget), constraints, this.deps.quotas)
    const base: NewTask = {
      task_id: randomUUID(),
      tenant: meta.tenant,
      goal: req.goal,
      constraints,
      context: req.context ?? null,
      acceptance_criteria: req.acceptance_criteria ?? [],
      budget,
      priority: req.priority ?? 'medium',
      metadata: (req.metadata ?? {}) as Record<string, unknown>,
      user_id: meta.userId ?? null,
      client_ip: meta.clientIp ?? null,
      deadline_at: new Date(Date.now() + timeout * 1000).toISOString(),
      ...(meta.origin !== undefined && { origin: meta.origin }),
    }
    const options = {
      ...(meta.idempotencyKey !== undefined && { idempotencyKey: scopedKey(meta), requestHash: requestHash(req) }),
      ...(saveUrl && { enqueue: (tx: Sql) => saveUrl(tx, base.task_id) }),
    }

    if (screening.blocked) {
      const { field, severity, families } = screening.blocked
      const reason = `prompt injection detected in ${field} (severity ${severity}${families.length > 0 ? `: ${families.join(', ')}` : ''})`
      const rejected = await store.create({ ...base, status: 'rejected', reason, deadline_at: null }, options)
      if (!rejected.replayed) {
        await store.appendEvent(base.tenant, base.task_id, {
          type: 'guardrail.injection',
          data: { field, severity, families, rejected: true },
        })
      }
      return rejected
    }

    const answerKey = this.deps.answerKeys.key(meta.tenant, req.goal, GOAL_FLAGS)
    const cached = this.isCacheable(base) ? await this.cachedResult(answerKey) : undefined
    if (cached !== undefined) {
      return store.create({ ...base, status: 'completed', result: cached, cached: true, deadline_at: null }, options)
    }
    const cap = this.deps.quotas.activePerTenant
    if (cap > 0 && (await store.countActive(meta.tenant, cap)) >= cap) {
      if (options.idempotencyKey !== undefined) {
        const replay = await store.replayOf(meta.tenant, options.idempotencyKey, requestHash(req))
        if (replay) return replay
      }
      throw activeCapReached(cap)
    }

    const job = { task_id: base.task_id, tenant: base.tenant, timeout_seconds: timeout, priority: base.priority }
    const enqueue = async (tx: Sql) => {
      await saveUrl?.(tx, base.task_id)
      await enqueueTask(queue, tx, job)
    }
    // A keyed request, or one with a webhook_url, takes the one-task path, where the key is claimed
    // and the URL kept in the same transaction.
    const created =
      this.batcher && meta.idempotencyKey === undefined && saveUrl === undefined
        ? { task: await this.batcher.create(base, job), replayed: false }
        : await store.create(base, { ...options, enqueue })
    if (!created.replayed && screening.piiCount > 0) {
      await store.appendEvent(base.tenant, base.task_id, {
        type: 'guardrail.pii_redacted',
        data: { types: screening.piiTypes, count: screening.piiCount },
      })
    }
    return created
  }

  /** Checks the request's webhook_url; what keeps it with the task, or undefined when it names none. */
  private async webhookSaver(req: CreateTaskRequest): Promise<((tx: Sql, taskId: string) => Promise<void>) | undefined> {
    const url = req.webhook_url
    if (url === undefined) return undefined
    const webhooks = this.deps.webhooks
    if (webhooks === undefined) throw HttpError.validation('webhook_url', 'is not accepted by this service')
    await webhooks.check(url, 'webhook_url')
    return (tx, taskId) => webhooks.save(tx, taskId, url)
  }

  /** Waits for submissions still committing (shutdown, before the database closes). */
  async drain(): Promise<void> {
    await this.batcher?.drain()
  }

  /** Stores a completed task's result under its goal's cache key (the runner calls this). */
  /** Stores `task`'s answer for its tenant's later tasks (and checks) of the exact same goal. */
  async remember(task: StoredTask): Promise<void> {
    if (!this.isCacheable(task) || task.status !== 'completed' || task.cached) return
    const key = this.deps.answerKeys.key(task.tenant, task.goal, GOAL_FLAGS)
    try {
      await this.deps.cache.set(key, JSON.stringify(task.result ?? null), this.deps.cacheTtlSeconds)
    } catch (err) {
      // A result too large or too deep for the cache is simply not reused.
      if (!(err instanceof CacheError)) throw err
    }
  }

  /** Drops the answer `remember` stored for `task`, so a deleted task's answer is not served again. */
  async forget(task: StoredTask): Promise<void> {
    if (!this.isCacheable(task) || task.status !== 'completed' || task.cached) return
    await this.deps.cache.delete(this.deps.answerKeys.key(task.tenant, task.goal, GOAL_FLAGS))
  }

  /** Nothing but a goal: no constraints, context or criteria, and no budget but the default one. */
  private isCacheable(t: CacheableShape): boolean {
    const defaults: TaskBudget = { max_tokens: this.deps.quotas.defaultMaxTokens }
    const budget = t.budget ?? {}
    return (
      isEmpty(t.constraints) && isEmpty(t.context) && isEmpty(t.acceptance_criteria) && (isEmpty(budget) || sameBudget(budget, defaults))
    )
  }

  private async cachedResult(key: string): Promise<unknown> {
    const entry = await this.deps.cache.get(key)
    return entry === undefined ? undefined : JSON.parse(entry.valueJson)
  }
}

interface Screening {
  /** The first text at or above the block level, by field. */
  blocked?: { field: string; severity: string; families: string[] }
  piiTypes: string[]
  piiCount: number
}

/** One decision for every text of the task: the first blocked one rejects it; personal data is counted across all. */
function screen(detector: Detector, texts: readonly TaskText[]): Screening {
  const piiTypes = new Set<string>()
  let piiCount = 0
  for (const { field, text } of texts) {
    const check = detector.check(text, GOAL_FLAGS)
    if (!check.allowed) {
      const families = [...new Set(check.injection_matches.map((m) => m.type))]
      return { blocked: { field, severity: check.severity, families }, piiTypes: [...piiTypes], piiCount }
    }
    for (const m of check.pii_matches) piiTypes.add(m.type)
    piiCount += check.pii_matches.length
  }
  return { piiTypes: [...piiTypes], piiCount }
}

/** Keys are per user (and the store keeps them per tenant), so two users' identical keys never collide. */
function scopedKey(meta: CreateMeta): string {
  return `${meta.userId ?? ''}:${meta.idempotencyKey ?? ''}`
}

function timeoutSeconds(req: CreateTaskRequest, max: number): number {
  const limits = [max, req.budget?.max_time_seconds]
  if (req.constraints && !Array.isArray(req.constraints)) limits.push(req.constraints.timeout_seconds)
  return Math.min(...limits.filter((n): n is number => typeof n === 'number'))
}

function normaliseBudget(budget: CreateTaskRequest['budget']): TaskBudget {
  if (!budget) return {}
  const out: TaskBudget = {}
  if (budget.max_tokens !== undefined) out.max_tokens = budget.max_tokens
  if (budget.max_time_seconds !== undefined) out.max_time_seconds = budget.max_time_seconds
  const cost = budget.max_cost_usd ?? budget.max_cost_dollars
  if (cost !== undefined) out.max_cost_usd = cost
  return out
}

interface CacheableShape {
  constraints?: unknown
  context?: unknown
  acceptance_criteria?: unknown
  budget?: TaskBudget
}

function sameBudget(a: TaskBudget, b: TaskBudget): boolean {
  return a.max_tokens === b.max_tokens && a.max_time_seconds === b.max_time_seconds && a.max_cost_usd === b.max_cost_usd
}

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null) return true
  if (Array.isArray(v)) return v.length === 0
  return typeof v === 'object' && Object.keys(v).length === 0
}
