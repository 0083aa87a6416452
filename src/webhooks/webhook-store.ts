/**
 * The webhook store port: subscriptions, the per-tenant signing secret, the URLs tasks name, and
 * the delivery log (docs/webhooks.md). Every read and change of a subscription or a delivery takes
 * a `TenantScope` and filters by it: another tenant's is missing, never an error that says it exists.
 *
 * ```ts
 * const { subscription, secret } = await store.createSubscription('acme', { url, events: ['task.completed'] })
 * await store.getSubscription('other', subscription.id) // null
 * ```
 */
import type { Sql } from '../stores/sql.js'
import type { TenantScope } from '../stores/tenant.js'
import type { WebhookEvent } from './events.js'

export interface NewSubscription {
  url: string
  events: readonly WebhookEvent[]
  description?: string | undefined
}

/** A subscription as the API shows it: never its secret, which is shown once, on creation. */
export interface Subscription {
  id: string
  url: string
  events: WebhookEvent[]
  description: string | null
  created_at: string
}

export type DeliveryState = 'pending' | 'delivered' | 'failed'

export interface DeliveryAttempt {
  attempt: number
  started_at: string
  duration_ms: number
  /** The receiver's status code; null when no response came (timeout, refused connection…). */
  status_code: number | null
  error: string | null
}

/** A delivery as the log shows it, with every attempt so far. */
export interface Delivery {
  id: string
  event: string
  subscription_id: string | null
  task_id: string | null
  url: string
  state: DeliveryState
  attempts: number
  next_attempt_at: string | null
  last_status: number | null
  last_error: string | null
  created_at: string
  updated_at: string
  log: DeliveryAttempt[]
}

/** What the deliverer needs for the next attempt: the fixed body and the secret to sign it with. */
export interface PendingDelivery {
  id: string
  tenant: string
  event: string
  url: string
  body: string
  attempts: number
  secret: string
}

/** A task's final event, to be sent to its tenant's subscribers and its own webhook_url. */
export interface FinalEvent {
  tenant: string
  task_id: string
  event: WebhookEvent
  /** The body of every delivery of this event; built only when the event has receivers. */
  body: () => string
}

/** The outcome of one attempt, recorded with it. */
export interface AttemptRecord {
  attempt: number
  startedAt: Date
  durationMs: number
  statusCode: number | null
  error: string | null
  state: DeliveryState
  /** When the next attempt is due; null once the delivery is final. */
  nextAttemptAt: Date | null
}

export interface Page<T> {
  items: T[]
  total: number
}

export interface WebhookStore {
  createSubscription(tenant: string, input: NewSubscription): Promise<{ subscription: Subscription; secret: string }>
  listSubscriptions(tenant: TenantScope, limit: number, offset: number): Promise<Page<Subscription>>
  getSubscription(tenant: TenantScope, id: string): Promise<Subscription | null>
  /** Deletes it with its delivery log; pending deliveries are not sent. Null when missing. */
  deleteSubscription(tenant: TenantScope, id: string): Promise<Subscription | null>
  /** The tenant's secret for task webhook_urls, created on first use. */
  tenantSecret(tenant: string): Promise<string>
  /** Keeps a task's webhook_url, inside the transaction that creates the task. */
  saveTaskUrl(tx: Sql, taskId: string, url: string): Promise<void>
  /** Inserts one pending delivery per receiver of `event`, inside `tx`; their ids. */
  queueDeliveries(tx: Sql, event: FinalEvent): Promise<string[]>
  /** The delivery if it is still pending, with its secret opened. */
  pending(id: string): Promise<PendingDelivery | null>
  /** Records an attempt; false (nothing written) when this attempt was recorded already. */
  recordAttempt(tx: Sql, id: string, record: AttemptRecord): Promise<boolean>
  /** A page of deliveries, newest first, of one subscription or one task. */
  deliveries(
    tenant: TenantScope,
    of: { subscriptionId: string } | { taskId: string },
    limit: number,
    offset: number,
  ): Promise<Page<Delivery>>
}
