/**
 * The retriever's tool inputs and outputs, declared once with typebox: validators for `execute`
 * and the JSON Schemas of its ArmCapability. One branch per tool (`title` = the tool), as the
 * executor does, so a planner can pick the branch for the step it builds.
 *
 * ```ts
 * capability.input_schema.oneOf.find((s) => s.title === 'search')
 * ```
 */
import Type from 'typebox'

export const MAX_QUERY_CHARS = 2000
export const MAX_SEARCH_K = 50
export const DEFAULT_SEARCH_K = 5
export const MAX_RECALL_K = 20
export const DEFAULT_RECALL_K = 3

export const SearchInput = Type.Object(
  {
    query: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_QUERY_CHARS,
        description: "what to look for; default: the step's action, else the task's goal",
      }),
    ),
    k: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_SEARCH_K, default: DEFAULT_SEARCH_K, description: 'how many chunks' })),
    summarise: Type.Optional(Type.Boolean({ default: false, description: "also summarise the hits with the step's model" })),
    require_hits: Type.Optional(
      Type.Boolean({ default: false, description: 'no hits fails the step NO_KNOWLEDGE_MATCH: the search is the answer to a question' }),
    ),
  },
  { title: 'search', additionalProperties: false },
)
export type SearchInput = Type.Static<typeof SearchInput>

export const RecallInput = Type.Object(
  {
    goal: Type.Optional(
      Type.String({ minLength: 1, maxLength: 10_000, description: "the goal to find similar past tasks for; default: the task's goal" }),
    ),
    k: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_RECALL_K, default: DEFAULT_RECALL_K })),
  },
  { title: 'recall', additionalProperties: false },
)
export type RecallInput = Type.Static<typeof RecallInput>

const Hit = Type.Object({
  document_id: Type.String(),
  chunk_id: Type.String(),
  position: Type.Integer(),
  title: Type.Union([Type.String(), Type.Null()]),
  source: Type.Union([Type.String(), Type.Null()]),
  text: Type.String(),
  score: Type.Number({ description: 'reciprocal rank fusion: Σ 1/(60 + rank)' }),
  fts_rank: Type.Union([Type.Integer(), Type.Null()]),
  vector_rank: Type.Union([Type.Integer(), Type.Null()]),
})

export const SearchOutput = Type.Object(
  {
    query: Type.String(),
    query_source: Type.Enum(['input', 'action', 'goal'], { description: 'where the query came from when input.query was absent' }),
    hits: Type.Array(Hit),
    summary: Type.Optional(Type.String()),
    summary_source: Type.Optional(
      Type.Literal('model', { description: 'present when a model wrote the summary; absent for the fixed "nothing found" text' }),
    ),
  },
  { title: 'search' },
)
export type SearchOutput = Type.Static<typeof SearchOutput>

const Similar = Type.Object({
  task_id: Type.String(),
  goal: Type.String(),
  steps: Type.Array(Type.Object({ arm: Type.String(), tool: Type.Union([Type.String(), Type.Null()]), action: Type.String() })),
  outcome: Type.String(),
  completed_at: Type.String(),
  score: Type.Number({ minimum: 0, maximum: 1 }),
})

export const RecallOutput = Type.Object({ goal: Type.String(), similar: Type.Array(Similar) }, { title: 'recall' })
export type RecallOutput = Type.Static<typeof RecallOutput>

const plain = (schema: unknown) => JSON.parse(JSON.stringify(schema)) as Record<string, unknown>

export const INPUT_SCHEMA = {
  description: 'request.input; its shape depends on request.tool',
  oneOf: [plain(SearchInput), plain(RecallInput)],
}
export const OUTPUT_SCHEMA = {
  description: 'the output; its shape depends on request.tool',
  oneOf: [plain(SearchOutput), plain(RecallOutput)],
}
