/**
 * What one task and one tenant may hold (docs/security.md, "Quotas"), checked when a task is
 * created:
 *
 * - Active tasks per tenant: a tenant with `activePerTenant` tasks not yet final gets 429 until one
 *   finishes. The count is one indexed query on the shared database, so every process sees the
 *   same number; two creates that race past it may both commit (a soft cap: the overshoot is at
 *   most the creates in flight at once).
 * - Tokens: a task that sets no token budget gets `defaultMaxTokens`; one that asks for more than
 *   `maxTokens` (in `budget.max_tokens` or `constraints.max_tokens`) is refused.
 * - Cost: `budget.max_cost_usd` is accepted only when the model's price is known (prices.ts).
 */
import { HttpError } from '../http/errors.js'
import type { ModelPrice } from '../llm/prices.js'
import type { TaskBudget, TaskConstraints } from '../stores/task.js'

export interface TaskQuotas {
  /** Tasks not yet final one tenant may have; 0: no cap. */
  activePerTenant: number
  /** The token budget of a task that sets none. */
  defaultMaxTokens: number
  /** The largest token budget a task may set. */
  maxTokens: number
  /** The model calls are charged for, and its price (undefined: unknown, so no cost budget is taken). */
  model: string
  price: ModelPrice | undefined
}

/** How long a client over the active-task cap is asked to wait before trying again, in seconds. */
export const ACTIVE_CAP_RETRY_AFTER_SECONDS = 5

/** The 429 of a tenant at its active-task cap. */
export function activeCapReached(cap: number): HttpError {
  return new HttpError(
    'RATE_LIMIT',
    `This tenant has ${cap} active tasks, the most it may have; retry when one has finished`,
    { field: 'tasks', constraint: `at most ${cap} active tasks per tenant` },
    { 'Retry-After': String(ACTIVE_CAP_RETRY_AFTER_SECONDS) },
  )
}

/**
 * The budget a task is stored with: `budget` with the default token budget filled in when neither
 * `budget.max_tokens` nor `constraints.max_tokens` sets one. Throws the 400 of a budget over the
 * maximum, or of a cost budget the model's price cannot enforce.
 */
export function boundedBudget(budget: TaskBudget, constraints: TaskConstraints, quotas: TaskQuotas): TaskBudget {
  const fromConstraints = Array.isArray(constraints) ? undefined : constraints.max_tokens
  if (budget.max_tokens !== undefined && budget.max_tokens > quotas.maxTokens)
    throw HttpError.validation('budget.max_tokens', `must be at most ${quotas.maxTokens}`)
  if (typeof fromConstraints === 'number' && fromConstraints > quotas.maxTokens)
    throw HttpError.validation('constraints.max_tokens', `must be at most ${quotas.maxTokens}`)
  if (budget.max_cost_usd !== undefined && quotas.price === undefined)
    throw HttpError.validation(
      'budget.max_cost_usd',
      `cannot be enforced: no price is configured for the model ${JSON.stringify(quotas.model)} (LLM_PRICES)`,
    )
  if (budget.max_tokens !== undefined || typeof fromConstraints === 'number') return budget
  return { ...budget, max_tokens: quotas.defaultMaxTokens }
}
