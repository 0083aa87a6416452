/**
 * The task events a webhook may carry (docs/webhooks.md): one per final status, named
 * `task.<status>`. A delivery is sent when a task reaches its final status, never before.
 *
 * ```ts
 * eventOfStatus('timed_out') // 'task.timed_out'
 * ```
 */
import { FINAL_STATUSES, type TaskStatus } from '../stores/task.js'

export const WEBHOOK_EVENTS = FINAL_STATUSES.map((status) => `task.${status}` as const)
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]

/** The event of a final status; undefined for a status that is not final. */
export function eventOfStatus(status: TaskStatus): WebhookEvent | undefined {
  const event = `task.${status}`
  return (WEBHOOK_EVENTS as readonly string[]).includes(event) ? (event as WebhookEvent) : undefined
}
