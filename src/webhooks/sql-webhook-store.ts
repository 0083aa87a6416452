/**
 * The webhook store on PGlite or PostgreSQL (migrations/0014_webhooks.sql). Secrets go in and out
 * through the secret box (secret-box.ts), so the rows hold them sealed when WEBHOOK_SECRET_KEY is set.
 */
import { randomUUID } from 'node:crypto'
import type { Sql } from '../stores/sql.js'
import { type TenantScope, tenantFilter } from '../stores/tenant.js'
import type { WebhookEvent } from './events.js'
import type { SecretBox } from './secret-box.js'
import { newSigningSecret } from './sign.js'
import type {
  AttemptRecord,
  Delivery,
  DeliveryAttempt,
  FinalEvent,
  NewSubscription,
  Page,
  PendingDelivery,
  Subscription,
  WebhookStore,
} from './webhook-store.js'

interface SubscriptionRow {
  id: string
  url: string
  events: string[]
  description: string | null
  created_at: Date | string
}

interface DeliveryRow {
  id: string
  event: string
  subscription_id: string | null
  task_id: string | null
  url: string
  state: Delivery['state']
  attempts: number
  next_attempt_at: Date | string | null
  last_status: number | null
  last_error: string | null
  created_at: Date | string
  updated_at: Date | string
  log: Array<Omit<DeliveryAttempt, 'started_at'> & { started_at: string }> | null
}

const SUBSCRIPTION_COLUMNS = 'id, url, events, description, created_at'

function iso(value: Date | string): string {
  return new Date(value).toISOString()
}

function toSubscription(row: SubscriptionRow): Subscription {
  return {
    id: row.id,
    url: row.url,
    events: row.events as WebhookEvent[],
    description: row.description,
    created_at: iso(row.created_at),
  }
}

function toDelivery(row: DeliveryRow): Delivery {
  return {
    id: row.id,
    event: row.event,
    subscription_id: row.subscription_id,
    task_id: row.task_id,
    url: row.url,
    state: row.state,
    attempts: Number(row.attempts),
    next_attempt_at: row.next_attempt_at === null ? null : iso(row.next_attempt_at),
    last_status: row.last_status,
    last_error: row.last_error,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    log: (row.log ?? []).map((a) => ({ ...a, started_at: iso(a.started_at) })),
  }
}

export class SqlWebhookStore implements WebhookStore {
  constructor(
    private readonly sql: Sql,
    private readonly box: SecretBox,
  ) {}

  async createSubscription(tenant: string, input: NewSubscription): Promise<{ subscription: Subscription; secret: string }> {
    const secret = newSigningSecret()
    const { rows } = await this.sql.query<SubscriptionRow>(
      `insert into webhook_subscriptions (id, tenant, url, events, description, secret)
       values ($1, $2, $3, $4::text[], $5, $6) returning ${SUBSCRIPTION_COLUMNS}`,
      [randomUUID(), tenant, input.url, [...input.events], input.description ?? null, this.box.seal(secret)],
    )
    return { subscription: toSubscription(rows[0]!), secret }
  }

  async listSubscriptions(tenant: TenantScope, limit: number, offset: number): Promise<Page<Subscription>> {
    const params: unknown[] = []
    const where = `where true${tenantFilter(tenant, 'tenant', params)}`
    const [page, count] = await Promise.all([
      this.sql.query<SubscriptionRow>(
        `select ${SUBSCRIPTION_COLUMNS} from webhook_subscriptions ${where}
          order by created_at desc, id desc limit $${params.length + 1} offset $${params.length + 2}`,
        [...params, limit, offset],
      ),
      this.sql.query<{ total: number | string }>(`select count(*) as total from webhook_subscriptions ${where}`, params),
    ])
    return { items: page.rows.map(toSubscription), total: Number(count.rows[0]?.total ?? 0) }
  }

  async getSubscription(tenant: TenantScope, id: string): Promise<Subscription | null> {
    const params: unknown[] = [id]
    const { rows } = await this.sql.query<SubscriptionRow>(
      `select ${SUBSCRIPTION_COLUMNS} from webhook_subscriptions where id = $1${tenantFilter(tenant, 'tenant', params)}`,
      params,
    )
    return rows[0] ? toSubscription(rows[0]) : null
  }

  async deleteSubscription(tenant: TenantScope, id: string): Promise<Subscription | null> {
    const params: unknown[] = [id]
    const { rows } = await this.sql.query<SubscriptionRow>(
      `delete from webhook_subscriptions where id = $1${tenantFilter(tenant, 'tenant', params)} returning ${SUBSCRIPTION_COLUMNS}`,
      params,
    )
    return rows[0] ? toSubscription(rows[0]) : null
  }

  async tenantSecret(tenant: string): Promise<string> {
    // Two first uses at once both try to insert; the one that loses reads the winner's.
    await this.sql.query('insert into webhook_tenant_secrets (tenant, secret) values ($1, $2) on conflict (tenant) do nothing', [
      tenant,
      this.box.seal(newSigningSecret()),
    ])
    const { rows } = await this.sql.query<{ secret: string }>('select secret from webhook_tenant_secrets where tenant = $1', [tenant])
    return this.box.open(rows[0]!.secret)
  }

  async saveTaskUrl(tx: Sql, taskId: string, url: string): Promise<void> {
    await tx.query('insert into task_webhooks (task_id, url) values ($1, $2)', [taskId, url])
  }

  async queueDeliveries(tx: Sql, event: FinalEvent): Promise<string[]> {
    // Most tasks have no receiver: one indexed read, and nothing more, for those.
    const { rows: receivers } = await tx.query<{ subscription_id: string | null; url: string }>(
      `select s.id as subscription_id, s.url from webhook_subscriptions s where s.tenant = $1 and $3 = any(s.events)
       union all
       select null, w.url from task_webhooks w where w.task_id = $2`,
      [event.tenant, event.task_id, event.event],
    )
    if (receivers.length === 0) return []
    const ids = receivers.map(() => randomUUID())
    await tx.query(
      `insert into webhook_deliveries (id, tenant, subscription_id, task_id, event, url, body)
       select x.id, $1, x.subscription_id, $2, $3, x.url, $4
         from jsonb_to_recordset($5::jsonb) as x(id text, subscription_id text, url text)`,
      [event.tenant, event.task_id, event.event, event.body(), JSON.stringify(receivers.map((r, i) => ({ ...r, id: ids[i] })))],
    )
    return ids
  }

  async pending(id: string): Promise<PendingDelivery | null> {
    const { rows } = await this.sql.query<Omit<PendingDelivery, 'secret'> & { secret: string | null }>(
      `select d.id, d.tenant, d.event, d.url, d.body, d.attempts, s.secret
         from webhook_deliveries d left join webhook_subscriptions s on s.id = d.subscription_id
        where d.id = $1 and d.state = 'pending'`,
      [id],
    )
    const row = rows[0]
    if (!row) return null
    const secret = row.secret === null ? await this.tenantSecret(row.tenant) : this.box.open(row.secret)
    return { ...row, attempts: Number(row.attempts), secret }
  }

  async recordAttempt(tx: Sql, id: string, r: AttemptRecord): Promise<boolean> {
    const { rowCount } = await tx.query(
      `update webhook_deliveries
          set attempts = $2, state = $3, next_attempt_at = $4, last_status = $5, last_error = $6, updated_at = now()
        where id = $1 and state = 'pending' and attempts = $2 - 1`,
      [id, r.attempt, r.state, r.nextAttemptAt, r.statusCode, r.error],
    )
    if (rowCount === 0) return false
    await tx.query(
      `insert into webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error)
       values ($1, $2, $3, $4, $5, $6)`,
      [id, r.attempt, r.startedAt, Math.round(r.durationMs), r.statusCode, r.error],
    )
    return true
  }

  async deliveries(
    tenant: TenantScope,
    of: { subscriptionId: string } | { taskId: string },
    limit: number,
    offset: number,
  ): Promise<Page<Delivery>> {
    const params: unknown[] = ['subscriptionId' in of ? of.subscriptionId : of.taskId]
    const where = `where d.${'subscriptionId' in of ? 'subscription_id' : 'task_id'} = $1${tenantFilter(tenant, 'd.tenant', params)}`
    const [page, count] = await Promise.all([
      this.sql.query<DeliveryRow>(
        `select d.id, d.event, d.subscription_id, d.task_id, d.url, d.state, d.attempts, d.next_attempt_at, d.last_status,
                d.last_error, d.created_at, d.updated_at,
                (select jsonb_agg(jsonb_build_object('attempt', a.attempt, 'started_at', a.started_at, 'duration_ms', a.duration_ms,
                                                     'status_code', a.status_code, 'error', a.error) order by a.attempt)
                   from webhook_attempts a where a.delivery_id = d.id) as log
           from webhook_deliveries d ${where}
          order by d.created_at desc, d.id desc limit $${params.length + 1} offset $${params.length + 2}`,
        [...params, limit, offset],
      ),
      this.sql.query<{ total: number | string }>(`select count(*) as total from webhook_deliveries d ${where}`, params),
    ])
    return { items: page.rows.map(toDelivery), total: Number(count.rows[0]?.total ?? 0) }
  }
}
