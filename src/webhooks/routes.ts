/**
 * The webhook API (docs/webhooks.md): subscriptions to task events, their delivery logs, a task's
 * own deliveries, and the tenant's secret for task webhook_urls.
 *
 * ```ts
 * registerWebhookRoutes(app, { webhooks, tasks, policy })
 * // POST   /api/v1/webhooks {url, events, description?}   → 201 the subscription with its `secret` (once) + Location
 * // GET    /api/v1/webhooks?page=1                         → 200 the page envelope of subscriptions, no secrets
 * // GET    /api/v1/webhooks/{id}                           → 200 the subscription | 404
 * // DELETE /api/v1/webhooks/{id}                           → 200 the subscription, deleted with its log | 404
 * // GET    /api/v1/webhooks/{id}/deliveries?page=1         → 200 the page envelope of deliveries, attempts included
 * // GET    /api/v1/tasks/{task_id}/webhook-deliveries      → 200 the same for one task | 404
 * // GET    /api/v1/webhook-secret                          → 200 {secret}: signs deliveries to task webhook_urls
 * ```
 *
 * Subscribing and deleting need `webhooks:write` (admin, member); reading subscriptions and logs
 * `webhooks:read` (admin, member, viewer), a task's deliveries `tasks:read`; the tenant secret
 * `webhooks:admin` (admin). Everything is the caller's tenant's (request-scope.ts): another
 * tenant's subscription or task is a 404, as one that does not exist.
 */
import Type from 'typebox'
import type { Ctx, HttpApp, Reply } from '../http/app.js'
import { HttpError } from '../http/errors.js'
import { pageEnvelope, parsePageQuery } from '../http/pagination.js'
import { compileSchema } from '../http/validate.js'
import { tenantToRead, tenantToWrite } from '../orchestrator/request-scope.js'
import type { TaskStore } from '../stores/task-store.js'
import { checkWebhookUrl, MAX_WEBHOOK_URL, type WebhookAddressPolicy } from './address.js'
import { WEBHOOK_EVENTS } from './events.js'
import type { WebhookStore } from './webhook-store.js'

export interface WebhookRouteDeps {
  webhooks: WebhookStore
  tasks: Pick<TaskStore, 'get'>
  policy: WebhookAddressPolicy
}

export const CreateWebhookRequest = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: MAX_WEBHOOK_URL }),
    events: Type.Array(Type.Enum([...WEBHOOK_EVENTS]), { minItems: 1, maxItems: WEBHOOK_EVENTS.length, uniqueItems: true }),
    description: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  },
  { additionalProperties: false },
)

const parseCreate = compileSchema(CreateWebhookRequest)
// Newest first, the one order the store keeps an index for.
const PAGE = { sortFields: ['created_at'], defaultSort: 'created_at' }

function notFound(field: string, id: string): HttpError {
  return HttpError.notFound(field, `No ${field === 'id' ? 'webhook subscription' : 'task'} with id ${JSON.stringify(id)}`)
}

export function registerWebhookRoutes(app: HttpApp, deps: WebhookRouteDeps): void {
  const { webhooks } = deps

  app.route(
    'POST',
    '/api/v1/webhooks',
    async (ctx: Ctx): Promise<Reply> => {
      const req = parseCreate(ctx.body)
      const tenant = tenantToWrite(ctx)
      await checkWebhookUrl(req.url, 'url', deps.policy)
      const { subscription, secret } = await webhooks.createSubscription(tenant, req)
      return {
        status: 201,
        headers: { Location: `/api/v1/webhooks/${subscription.id}`, 'cache-control': 'no-store' },
        body: { ...subscription, secret },
      }
    },
    { permission: 'webhooks:write' },
  )

  app.route(
    'GET',
    '/api/v1/webhooks',
    async (ctx: Ctx): Promise<Reply> => {
      const q = parsePageQuery(ctx.query, PAGE)
      const { items, total } = await webhooks.listSubscriptions(tenantToRead(ctx), q.pageSize, q.offset)
      return { body: pageEnvelope(items, total, q) }
    },
    { permission: 'webhooks:read' },
  )

  app.route(
    'GET',
    '/api/v1/webhooks/:id',
    async (ctx: Ctx): Promise<Reply> => {
      const id = ctx.params.id ?? ''
      const subscription = await webhooks.getSubscription(tenantToRead(ctx), id)
      if (subscription === null) throw notFound('id', id)
      return { body: subscription }
    },
    { permission: 'webhooks:read' },
  )

  app.route(
    'DELETE',
    '/api/v1/webhooks/:id',
    async (ctx: Ctx): Promise<Reply> => {
      const id = ctx.params.id ?? ''
      const subscription = await webhooks.deleteSubscription(tenantToRead(ctx), id)
      if (subscription === null) throw notFound('id', id)
      return { body: subscription }
    },
    { permission: 'webhooks:write' },
  )

  app.route(
    'GET',
    '/api/v1/webhooks/:id/deliveries',
    async (ctx: Ctx): Promise<Reply> => {
      const id = ctx.params.id ?? ''
      const q = parsePageQuery(ctx.query, PAGE)
      const scope = tenantToRead(ctx)
      if ((await webhooks.getSubscription(scope, id)) === null) throw notFound('id', id)
      const { items, total } = await webhooks.deliveries(scope, { subscriptionId: id }, q.pageSize, q.offset)
      return { body: pageEnvelope(items, total, q) }
    },
    { permission: 'webhooks:read' },
  )

  app.route(
    'GET',
    '/api/v1/tasks/:task_id/webhook-deliveries',
    async (ctx: Ctx): Promise<Reply> => {
      const id = ctx.params.task_id ?? ''
      const q = parsePageQuery(ctx.query, PAGE)
      const scope = tenantToRead(ctx)
      if ((await deps.tasks.get(scope, id)) === null) throw notFound('task_id', id)
      const { items, total } = await webhooks.deliveries(scope, { taskId: id }, q.pageSize, q.offset)
      return { body: pageEnvelope(items, total, q) }
    },
    { permission: 'tasks:read' },
  )

  app.route(
    'GET',
    '/api/v1/webhook-secret',
    async (ctx: Ctx): Promise<Reply> => ({
      headers: { 'cache-control': 'no-store' },
      body: { secret: await webhooks.tenantSecret(tenantToWrite(ctx)) },
    }),
    { permission: 'webhooks:admin' },
  )
}
