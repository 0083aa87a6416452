/**
 * Erasing one tenant's data (`DELETE /api/v1/tenants/{tenant}`, docs/storage.md, "Retention and
 * deletion"): its finished tasks with everything hanging off them, its knowledge documents and
 * their chunks, its episodic memory, its API keys, and its webhook subscriptions (with their
 * delivery logs) and signing secret.
 *
 * ```ts
 * const outcome = await eraseTenant({ sql, knowledge }, 'acme')
 * // { erased: { tasks: 12, knowledge_documents: 3, knowledge_chunks: 40, episodes: 9, api_keys: 2, webhook_subscriptions: 1 } }
 * // or { active: 2 } when tasks of the tenant are still queued or running: nothing was erased
 * ```
 *
 * Tasks a worker may still act on are never taken from under it: while the tenant has any, nothing
 * is erased and the caller is told to cancel them first. Everything goes in batches, each its own
 * short transaction, so a large tenant does not hold locks for long; an erasure that stops half
 * way (a crash, a timeout) is finished by calling it again. Knowledge and episodic memory go
 * through their stores, so their vectors go wherever they are kept (Qdrant included).
 */

import type { EpisodicMemory } from '../arms/memory.js'
import type { KnowledgeStore } from '../stores/knowledge-store.js'
import type { Sql } from '../stores/sql.js'
import { forgetVectorsOf, TaskDeletion } from '../stores/task-deletion.js'

export interface ErasedCounts {
  tasks: number
  knowledge_documents: number
  knowledge_chunks: number
  episodes: number
  api_keys: number
  webhook_subscriptions: number
}

export type ErasureOutcome = { erased: ErasedCounts } | { active: number }

export interface ErasureDeps {
  sql: Sql
  knowledge: KnowledgeStore
  /** Episodic memory, so its vectors go too; without it the rows are deleted in SQL. */
  memory?: EpisodicMemory
}

/** Rows per batch. */
const BATCH = 200

export async function eraseTenant(deps: ErasureDeps, tenant: string): Promise<ErasureOutcome> {
  const { sql, knowledge, memory } = deps
  const { rows } = await sql.query<{ n: number | string }>(
    `select count(*) as n from tasks where tenant = $1 and status in ('queued','planning','running','cancelling')`,
    [tenant],
  )
  const active = Number(rows[0]?.n ?? 0)
  if (active > 0) return { active }

  const erased: ErasedCounts = { tasks: 0, knowledge_documents: 0, knowledge_chunks: 0, episodes: 0, api_keys: 0, webhook_subscriptions: 0 }
  const deletion = new TaskDeletion(sql, forgetVectorsOf(memory))
  for (;;) {
    const n = await deletion.deleteFinishedOf(tenant, BATCH)
    erased.tasks += n.tasks
    erased.episodes += n.episodes
    if (n.tasks < BATCH) break
  }
  for (;;) {
    const { items } = await knowledge.list(tenant, { limit: BATCH, offset: 0, order: 'asc' })
    if (items.length === 0) break
    for (const doc of items) {
      if (await knowledge.delete(tenant, doc.document_id)) {
        erased.knowledge_documents++
        erased.knowledge_chunks += doc.chunks
      }
    }
  }
  // Episodes of tasks deleted before (or never stored as tasks here), with every vector of the
  // tenant's memory; then the keys and the webhooks (their deliveries go with them).
  erased.episodes += memory?.deleteTenant ? await memory.deleteTenant(tenant) : await deleteInBatches(sql, 'episodes', 'task_id', tenant)
  erased.api_keys += await deleteInBatches(sql, 'api_keys', 'id', tenant)
  erased.webhook_subscriptions += await deleteInBatches(sql, 'webhook_subscriptions', 'id', tenant)
  await sql.query('delete from webhook_tenant_secrets where tenant = $1', [tenant])
  return { erased }
}

/** Deletes the tenant's rows of `table` (keyed by `key`) in batches; how many went. Names come from this file only. */
async function deleteInBatches(
  sql: Sql,
  table: 'episodes' | 'api_keys' | 'webhook_subscriptions',
  key: 'task_id' | 'id',
  tenant: string,
): Promise<number> {
  let total = 0
  for (;;) {
    const { rowCount } = await sql.query(
      `delete from ${table} where ${key} in (select ${key} from ${table} where tenant = $1 limit ${BATCH})`,
      [tenant],
    )
    total += rowCount
    if (rowCount < BATCH) return total
  }
}
