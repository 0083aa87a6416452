/**
 * Request schemas of the task API (openapi.yaml), declared once; validators are compiled at
 * start-up and openapi.yaml is checked against these declarations.
 */
import Type from 'typebox'

import { ARM_NAMES } from '../config/schema.js'
import { PRIORITIES } from '../stores/task.js'
import { MAX_WEBHOOK_URL } from '../webhooks/address.js'

export const MAX_GOAL_CHARS = 10_000

/** Free-form limits; the keys the service acts on are typed, any other key is kept as given. */
export const ConstraintObject = Type.Object(
  {
    max_tokens: Type.Optional(Type.Integer({ minimum: 1 })),
    // Whole-second granularity: the timeout job is scheduled in seconds.
    timeout_seconds: Type.Optional(Type.Number({ minimum: 1, maximum: 86400 })),
    allowed_arms: Type.Optional(Type.Array(Type.Enum([...ARM_NAMES]), { uniqueItems: true })),
  },
  { additionalProperties: true },
)

/** Natural-language constraints ("answer in French", "no external calls"). */
export const ConstraintList = Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), { maxItems: 50 })

export const Budget = Type.Object(
  {
    max_tokens: Type.Optional(Type.Integer({ minimum: 1 })),
    max_time_seconds: Type.Optional(Type.Number({ minimum: 1, maximum: 86400 })),
    max_cost_usd: Type.Optional(Type.Number({ minimum: 0 })),
    /** An alias of max_cost_usd accepted from earlier clients. */
    max_cost_dollars: Type.Optional(Type.Number({ minimum: 0 })),
  },
  { additionalProperties: false },
)

export const CreateTaskRequest = Type.Object(
  {
    goal: Type.String({ minLength: 1, maxLength: MAX_GOAL_CHARS }),
    constraints: Type.Optional(Type.Union([ConstraintObject, ConstraintList])),
    context: Type.Optional(Type.Union([Type.Object({}, { additionalProperties: true }), Type.String({ maxLength: 100_000 })])),
    acceptance_criteria: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), { maxItems: 50 })),
    budget: Type.Optional(Budget),
    priority: Type.Optional(Type.Enum([...PRIORITIES])),
    metadata: Type.Optional(Type.Object({}, { additionalProperties: true })),
    /** Where the task's final event is delivered (docs/webhooks.md); its form and address are checked by the service. */
    webhook_url: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_WEBHOOK_URL })),
  },
  { additionalProperties: false },
)
export type CreateTaskRequest = Type.Static<typeof CreateTaskRequest>
