/**
 * The planner arm's input schema, published as its `input_schema`, and its bounds by name: the
 * runner cuts a longer re-plan reason to `MAX_PREVIOUS_FAILURE_CHARS` before it asks
 * (src/orchestrator/runner/arm-planner.ts).
 */
import Type from 'typebox'

import { ExternalArm, MAX_EXTERNAL_ARMS } from './external-arms.js'

/** Bounds of the task API's own `acceptance_criteria` (src/orchestrator/schemas.ts). */
export const MAX_CRITERIA = 50
export const MAX_CRITERION_CHARS = 2000
/** Why the last plan failed, in code points (JSON Schema's `maxLength`): room for a judge's reasons. */
export const MAX_PREVIOUS_FAILURE_CHARS = 20_000

export const PlannerInput = Type.Object({
  constraints: Type.Optional(Type.Union([Type.Object({}, { additionalProperties: true }), Type.Array(Type.String())])),
  acceptance_criteria: Type.Optional(Type.Array(Type.String({ maxLength: MAX_CRITERION_CHARS }), { maxItems: MAX_CRITERIA })),
  previous_failure: Type.Optional(Type.String({ maxLength: MAX_PREVIOUS_FAILURE_CHARS })),
  /** Registered arms the model may plan steps for (the heuristic plans built-in arms only). */
  external_arms: Type.Optional(Type.Array(ExternalArm, { maxItems: MAX_EXTERNAL_ARMS })),
})
