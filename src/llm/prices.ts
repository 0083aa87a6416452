/**
 * What model calls cost, from the price table an operator configures (`LLM_PRICES`), for tasks
 * that set `budget.max_cost_usd`.
 *
 * ```ts
 * const table = parsePrices('{"gpt-4o-mini": {"input_per_mtok": 0.15, "output_per_mtok": 0.6}}')
 * const price = priceOf('openai', 'gpt-4o-mini', table)  // undefined: no price, a cost budget is refused
 * costUsd({ prompt: 1000, completion: 500 }, price)      // 0.00045
 * worstPerToken(price)                                    // 6e-7: what a token is held at before a call
 * ```
 *
 * A local provider (`offline`, `llama`) bills nothing: without a price of its own its calls cost 0.
 */
import type { Usage } from './provider.js'

export interface ModelPrice {
  /** US dollars per million prompt tokens. */
  input_per_mtok: number
  /** US dollars per million completion tokens. */
  output_per_mtok: number
}

export type PriceTable = Readonly<Record<string, ModelPrice>>

const FREE: ModelPrice = Object.freeze({ input_per_mtok: 0, output_per_mtok: 0 })
const LOCAL_PROVIDERS: ReadonlySet<string> = new Set(['offline', 'llama'])
const FIELDS = ['input_per_mtok', 'output_per_mtok'] as const

/**
 * The table in `text` (a JSON object of model name → price), or what is wrong with it. Prices are
 * finite numbers of 0 or more; any other key of a price is refused, so a typo is not a free model.
 */
export function parsePrices(text: string): { table: PriceTable } | { problem: string } {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return { problem: 'must be a JSON object of model name to {"input_per_mtok": n, "output_per_mtok": n}' }
  }
  if (!isObject(parsed)) return { problem: 'must be a JSON object of model name to {"input_per_mtok": n, "output_per_mtok": n}' }
  const table: Record<string, ModelPrice> = {}
  for (const [model, price] of Object.entries(parsed)) {
    const name = JSON.stringify(model)
    if (model === '') return { problem: 'model names must not be empty' }
    if (!isObject(price)) return { problem: `${name} must be an object with input_per_mtok and output_per_mtok` }
    const extra = Object.keys(price).filter((k) => !(FIELDS as readonly string[]).includes(k))
    if (extra.length > 0) return { problem: `${name} has unknown keys ${extra.join(', ')}` }
    for (const field of FIELDS) {
      const n = price[field]
      if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) return { problem: `${name}.${field} must be a number of 0 or more` }
    }
    table[model] = Object.freeze({ input_per_mtok: price.input_per_mtok as number, output_per_mtok: price.output_per_mtok as number })
  }
  return { table: Object.freeze(table) }
}

/** The price `model` is charged at: the table's, free for a local provider, undefined when unknown. */
export function priceOf(provider: string, model: string, table: PriceTable): ModelPrice | undefined {
  if (Object.hasOwn(table, model)) return table[model]
  return LOCAL_PROVIDERS.has(provider) ? FREE : undefined
}

/** What `usage` cost at `price`, in US dollars. */
export function costUsd(usage: Usage, price: ModelPrice): number {
  return (usage.prompt * price.input_per_mtok + usage.completion * price.output_per_mtok) / 1_000_000
}

/** The dearer of the two per-token prices: a hold at this rate covers any mix of prompt and completion. */
export function worstPerToken(price: ModelPrice): number {
  return Math.max(price.input_per_mtok, price.output_per_mtok) / 1_000_000
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}
