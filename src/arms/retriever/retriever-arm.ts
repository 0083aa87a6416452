/**
 * The retriever arm (docs/arms/retriever.md): `search` the knowledge store (hybrid full text +
 * vectors, see src/stores/knowledge-store.ts), optionally summarising the hits with the step's
 * model, and `recall` completed tasks with a similar goal from episodic memory.
 *
 * ```ts
 * const arm = createRetrieverArm({ knowledge, memory })
 * await arm.execute({ …request, tool: 'search', input: { query: 'restart the worker', k: 3, summarise: true } }, ctx)
 * // → { query, query_source: 'input', hits: [{ document_id, chunk_id, title, source, text, score, fts_rank, vector_rank, … }],
 * //     summary: '…', summary_source: 'model' }
 * await arm.execute({ …request, tool: 'recall', input: { k: 2 } }, ctx)  // goal: the task's
 * // → { goal, similar: [{ task_id, goal, steps, outcome, completed_at, score }] }
 * ```
 *
 * A search with `require_hits` is the answer to a question: no hits fails it NO_KNOWLEDGE_MATCH
 * rather than completing with nothing. Without `input.query`, search uses the step's `action`, else the task's `goal`, and says which
 * in `query_source`. Both tools read the task's tenant only (`ctx.claims.tenant`, signed into the
 * capability token by the orchestrator): another tenant's documents and past tasks are never found.
 * Retrieved text is data, not instructions: the summary prompt says so, and passages flagged as
 * prompt injection at ingest are never hits here (the store's search leaves them out), so none
 * reaches the summary or a later step; the guardian's final scrub screens the output again.
 */

import type { Static, TSchema } from 'typebox'
import { Compile } from 'typebox/compile'
import { LlmError } from '../../llm/provider.js'
import type { KnowledgeStore, SearchHit } from '../../stores/knowledge-store.js'
import { ARM_TOOLS, type Arm, type ArmContext, ArmError, type ArmHealth, type ExecuteRequest } from '../contract.js'
import type { EpisodicMemory } from '../memory.js'
import {
  DEFAULT_RECALL_K,
  DEFAULT_SEARCH_K,
  INPUT_SCHEMA,
  MAX_QUERY_CHARS,
  OUTPUT_SCHEMA,
  RecallInput,
  type RecallOutput,
  SearchInput,
  type SearchOutput,
} from './schemas.js'
import { summariseHits } from './summarise-hits.js'

export interface RetrieverDeps {
  knowledge: KnowledgeStore
  memory: EpisodicMemory
}

const DESCRIPTION =
  'Finds knowledge: search (hybrid PostgreSQL full-text and vector search over ingested documents, fused by ' +
  "reciprocal rank; optionally a summary of the hits by the step's model) and recall (completed tasks whose goal " +
  'is most similar, with their plans, for reuse).'

export function createRetrieverArm(deps: RetrieverDeps): Arm {
  const parseSearch = validator(SearchInput)
  const parseRecall = validator(RecallInput)

  async function search(request: ExecuteRequest, ctx: ArmContext): Promise<SearchOutput> {
    const input = parseSearch(request.input)
    const { query, source } = queryOf(input.query, request)
    const hits = await deps.knowledge.search(ctx.claims.tenant, query, { k: input.k ?? DEFAULT_SEARCH_K, signal: ctx.signal })
    ctx.signal.throwIfAborted()
    if (hits.length === 0 && input.require_hits)
      throw new ArmError('NO_KNOWLEDGE_MATCH', `nothing in the knowledge store matches "${query}", so there is no answer to give`)
    const out: SearchOutput = { query, query_source: source, hits }
    if (!input.summarise) return out
    if (hits.length === 0) return { ...out, summary: `Nothing in the knowledge store matches "${query}".` }
    return { ...out, summary: await summarise(query, hits, ctx), summary_source: 'model' }
  }

  async function recall(request: ExecuteRequest, ctx: ArmContext): Promise<RecallOutput> {
    const input = parseRecall(request.input)
    const goal = input.goal ?? request.goal.trim()
    if (goal === '') throw new ArmError('INPUT_INVALID', 'input.goal is required when the task has no goal')
    const similar = await deps.memory.similar(ctx.claims.tenant, goal, input.k ?? DEFAULT_RECALL_K, ctx.signal)
    ctx.signal.throwIfAborted()
    return { goal, similar }
  }

  return {
    name: 'retriever',
    capability: {
      arm_id: 'retriever',
      name: 'Retriever',
      description: DESCRIPTION,
      capabilities: [...ARM_TOOLS.retriever],
      input_schema: INPUT_SCHEMA,
      output_schema: OUTPUT_SCHEMA,
      cost_tier: 'low',
    },

    async execute(request, ctx) {
      ctx.signal.throwIfAborted()
      switch (request.tool) {
        case 'search':
          return search(request, ctx)
        case 'recall':
          return recall(request, ctx)
        default:
          throw new ArmError('TOOL_UNKNOWN', `the retriever has no tool '${request.tool}' (search, recall)`)
      }
    },

    async health(): Promise<Pick<ArmHealth, 'status' | 'checks'>> {
      const store = await deps.knowledge.check()
      return { status: store.ok ? 'healthy' : 'unhealthy', checks: { knowledge_store: store } }
    },
  }
}

function queryOf(given: string | undefined, request: ExecuteRequest): { query: string; source: SearchOutput['query_source'] } {
  if (given !== undefined) return { query: given, source: 'input' }
  const action = request.action.trim()
  if (action !== '') return { query: action.slice(0, MAX_QUERY_CHARS), source: 'action' }
  const goal = request.goal.trim()
  if (goal !== '') return { query: goal.slice(0, MAX_QUERY_CHARS), source: 'goal' }
  throw new ArmError('INPUT_INVALID', 'input.query is required when the step has neither an action nor a goal')
}

async function summarise(query: string, hits: readonly SearchHit[], ctx: ArmContext): Promise<string> {
  try {
    return await summariseHits(ctx.llm, query, hits, ctx.signal)
  } catch (err) {
    // The model's own codes (budget exceeded, unavailable, aborted) say more than ARM_ERROR would.
    if (err instanceof LlmError) throw new ArmError(err.code, err.message, err.retryable)
    throw err
  }
}

/** A compiled typebox check whose first error becomes INPUT_INVALID naming the field. */
function validator<S extends TSchema>(schema: S): (value: unknown) => Static<S> {
  const check = Compile(schema)
  return (value) => {
    if (check.Check(value)) return value as Static<S>
    const first = check.Errors(value)[0]
    let field = first?.instancePath ?? ''
    let what = first?.message ?? 'does not match the schema'
    if (first?.keyword === 'additionalProperties') {
      field += `/${(first.params as { additionalProperties?: string[] }).additionalProperties?.[0] ?? ''}`
      what = 'is not a known field'
    } else if (first?.keyword === 'boolean' && first.schemaPath.endsWith('/additionalProperties')) {
      // typebox reports `additionalProperties: false` per unknown property, at that property.
      what = 'is not a known field'
    }
    const name = `input${field.replace(/\//g, '.')}`
    throw new ArmError('INPUT_INVALID', `${name} ${what}`)
  }
}
