/**
 * The planner arm's input: the schema it publishes as its `input_schema`, and the one compiled
 * check every call goes through, so what the schema promises (the bounds included) is what the arm
 * takes. A caller that breaks it gets INPUT_INVALID naming the field and the rule, worded as every
 * arm's `checkedInput` words it (a union by the branch the value was meant for):
 *
 * ```ts
 * readPlannerInput({ …request, goal: 'Count: a b', input: { previous_failure: 'x'.repeat(20_001) } })
 * // ArmError INPUT_INVALID 'input.previous_failure: must not have more than 20000 characters'
 * readPlannerInput({ …request, goal: 'Count: a b', input: { constraints: 'fast' } })
 * // ArmError INPUT_INVALID 'input.constraints: must be object or array'
 * ```
 *
 * The runner cuts a longer re-plan reason to `MAX_PREVIOUS_FAILURE_CHARS` before it asks
 * (src/orchestrator/runner/replan-reason.ts), so its own re-plans always pass.
 */
import Type from 'typebox'
import { Compile } from 'typebox/compile'

import { ArmError, BUILTIN_ARMS, type ExecuteRequest, inputInvalid } from '../contract.js'
import { ExternalArm, MAX_EXTERNAL_ARMS } from './external-arms.js'

/** Bounds of the task API's own `acceptance_criteria` (src/orchestrator/schemas.ts). */
export const MAX_CRITERIA = 50
export const MAX_CRITERION_CHARS = 2000
/** Why the last plan failed, in code points (JSON Schema's `maxLength`): room for a judge's reasons. */
export const MAX_PREVIOUS_FAILURE_CHARS = 20_000

export const PlannerInput = Type.Object({
  /** An object (its `allowed_arms` limits the arms planned) or natural-language constraints. */
  constraints: Type.Optional(
    Type.Union([
      Type.Object({ allowed_arms: Type.Optional(Type.Array(Type.String())) }, { additionalProperties: true }),
      Type.Array(Type.String()),
    ]),
  ),
  acceptance_criteria: Type.Optional(Type.Array(Type.String({ maxLength: MAX_CRITERION_CHARS }), { maxItems: MAX_CRITERIA })),
  previous_failure: Type.Optional(Type.String({ maxLength: MAX_PREVIOUS_FAILURE_CHARS })),
  /** Registered arms the model may plan steps for (the heuristic plans built-in arms only). */
  external_arms: Type.Optional(Type.Array(ExternalArm, { maxItems: MAX_EXTERNAL_ARMS })),
})
type PlannerInput = Type.Static<typeof PlannerInput>

/** The input as the two planning paths read it. */
export interface Input {
  goal: string
  /** `constraints.allowed_arms`, or null when the task does not restrict arms. */
  allowed: string[] | null
  constraints: Record<string, unknown> | string[]
  acceptanceCriteria: string[]
  previousFailure?: string
  external: ExternalArm[]
}

const check = Compile(PlannerInput)

/** The request's goal and input, or INPUT_INVALID naming the first wrong field. */
export function readPlannerInput(request: ExecuteRequest): Input {
  const goal = request.goal.trim()
  if (goal === '') throw invalid('the goal is empty')
  const input = checked(request.input)
  const { constraints = {}, acceptance_criteria: criteria = [], previous_failure: failure, external_arms: external = [] } = input
  // What a schema cannot say: a registered arm must not take over a built-in arm's name.
  const shadow = external.find((e) => (BUILTIN_ARMS as readonly string[]).includes(e.name))
  if (shadow) throw invalid(`'external_arms' names the built-in arm ${shadow.name}`)
  return {
    goal,
    allowed: Array.isArray(constraints) ? null : (constraints.allowed_arms ?? null),
    constraints: constraints as Input['constraints'],
    acceptanceCriteria: criteria,
    ...(failure !== undefined && { previousFailure: failure }),
    external,
  }
}

function checked(value: unknown): PlannerInput {
  if (check.Check(value)) return value
  throw inputInvalid(check.Errors(value), 'input')
}

function invalid(message: string): ArmError {
  return new ArmError('INPUT_INVALID', message)
}
