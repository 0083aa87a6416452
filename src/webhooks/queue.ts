/**
 * Webhook deliveries through the job queue (docs/webhooks.md, "Retries"). A task's final status
 * and its deliveries commit in one transaction (`queueOnFinal`, called by the task store), so a
 * delivery exists exactly when the status it reports does. Each `webhook.deliver` job is one
 * attempt; a failed attempt that may be retried records itself and sends the next job, delayed
 * by the backoff, in one transaction.
 *
 * ```ts
 * const store = new SqlTaskStore(sql, { onFinal: queueOnFinal(webhooks, queue) })
 * await startDeliveries({ sql, store: webhooks, queue, policy, retry: DEFAULT_RETRY })
 * ```
 *
 * A job runs at least once: if a worker dies mid-attempt the job runs again, and the receiver may
 * see the same `Ganglion-Delivery` twice. Recording an attempt is conditional on the attempt
 * count, so a duplicate job never records twice nor sends a second next attempt.
 */
import { randomUUID } from 'node:crypto'
import type { Agent } from 'undici'
import { guardedAgent } from '../arms/arm-address.js'
import type { JobQueue, QueueDefinition } from '../orchestrator/queue/job-queue.js'
import type { Sql } from '../stores/sql.js'
import type { StoredTask } from '../stores/task.js'
import type { WebhookAddressPolicy } from './address.js'
import { attempt } from './deliver.js'
import { eventOfStatus, type WebhookEvent } from './events.js'
import type { DeliveryState, WebhookStore } from './webhook-store.js'

export const WEBHOOK_DELIVER = 'webhook.deliver'

/** Deliveries attempted at once per process. */
const CONCURRENCY = 8

/**
 * The queue's own retries cover a worker that died or a database that failed mid-job; the
 * receiver's failures are retried by the backoff below, one job per attempt.
 */
export const WEBHOOK_QUEUES: QueueDefinition[] = [
  { name: WEBHOOK_DELIVER, retryLimit: 5, retryDelaySeconds: 5, retryBackoff: true, expireInSeconds: 5 * 60 },
]

export interface DeliverJob {
  delivery_id: string
  /** 1 for the first attempt. */
  attempt: number
}

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number
  /** Delay before the second attempt; each later delay is four times the one before. */
  baseDelayMs: number
  /** The longest one attempt may take. */
  timeoutMs: number
}

/** Six attempts: at once, then after 10 s, 40 s, 160 s, 640 s and 2,560 s (about 56 minutes in all). */
export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 6, baseDelayMs: 10_000, timeoutMs: 10_000 }

/** The delay after failed attempt `n` (1-based). */
export function retryDelayMs(n: number, policy: RetryPolicy): number {
  return policy.baseDelayMs * 4 ** (n - 1)
}

/** The body every receiver of a task's final event gets (docs/webhooks.md, "Payload"). */
export function eventBody(task: StoredTask, event: WebhookEvent): string {
  return JSON.stringify({
    id: randomUUID(),
    type: event,
    created_at: new Date().toISOString(),
    data: {
      task_id: task.task_id,
      status: task.status,
      priority: task.priority,
      created_at: task.created_at,
      started_at: task.started_at,
      completed_at: task.completed_at,
      result: task.result,
      error: task.error,
      usage: task.usage,
      cached: task.cached,
    },
  })
}

/** The task store's final-status hook: queues a delivery per receiver, inside the status change's transaction. */
export function queueOnFinal(store: WebhookStore, queue: JobQueue): (tx: Sql, task: StoredTask) => Promise<void> {
  return async (tx, task) => {
    const event = eventOfStatus(task.status)
    if (event === undefined) return
    const ids = await store.queueDeliveries(tx, { tenant: task.tenant, task_id: task.task_id, event, body: () => eventBody(task, event) })
    if (ids.length === 0) return
    await queue.sendMany(
      WEBHOOK_DELIVER,
      ids.map((id) => ({ data: { delivery_id: id, attempt: 1 } satisfies DeliverJob })),
      { tx },
    )
  }
}

export interface DeliveryDeps {
  sql: Sql
  store: WebhookStore
  queue: JobQueue
  policy: WebhookAddressPolicy
  retry: RetryPolicy
  /** Told of each delivery given up; only the URL's host is logged, since a query string may hold a token. */
  log?: { warn(obj: object, msg: string): void }
}

/** Works the delivery queue in this process; returns what stops it (attempts under way finish first). */
export async function startDeliveries(deps: DeliveryDeps): Promise<() => Promise<void>> {
  const agent = guardedAgent(deps.policy)
  const id = await deps.queue.work<DeliverJob>(WEBHOOK_DELIVER, (job) => deliverOnce(deps, agent, job.data), { concurrency: CONCURRENCY })
  return async () => {
    await deps.queue.offWork(WEBHOOK_DELIVER, id, { wait: true })
    await agent.close()
  }
}

/** One attempt of the job's delivery, recorded, and the next one queued when it may be retried. */
export async function deliverOnce(deps: DeliveryDeps, agent: Agent, job: DeliverJob): Promise<void> {
  const delivery = await deps.store.pending(job.delivery_id)
  // Delivered, given up, deleted with its subscription or task, or this attempt already made.
  if (delivery === null || delivery.attempts !== job.attempt - 1) return
  const startedAt = new Date()
  const result = await attempt(delivery, { agent, timeoutMs: deps.retry.timeoutMs }, startedAt)
  const again = result.outcome === 'retry' && job.attempt < deps.retry.maxAttempts
  const state: DeliveryState = result.outcome === 'delivered' ? 'delivered' : again ? 'pending' : 'failed'
  const delayMs = again ? retryDelayMs(job.attempt, deps.retry) : 0
  await deps.sql.transaction(async (tx) => {
    const recorded = await deps.store.recordAttempt(tx, delivery.id, {
      attempt: job.attempt,
      startedAt,
      durationMs: result.durationMs,
      statusCode: result.statusCode,
      error: result.error,
      state,
      nextAttemptAt: again ? new Date(Date.now() + delayMs) : null,
    })
    if (recorded && state === 'failed') {
      const host = new URL(delivery.url).host
      deps.log?.warn(
        { delivery_id: delivery.id, event: delivery.event, host, attempts: job.attempt, status: result.statusCode, error: result.error },
        'webhook delivery failed',
      )
    }
    if (recorded && again) {
      await deps.queue.send(WEBHOOK_DELIVER, { delivery_id: delivery.id, attempt: job.attempt + 1 } satisfies DeliverJob, {
        tx,
        startAfterSeconds: delayMs / 1000,
      })
    }
  })
}
