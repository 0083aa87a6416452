/**
 * Registered (external) arms in a plan. The orchestrator passes each one's name, description,
 * tools and input schema to the planner (`input.external_arms`); the model path lists them beside
 * the built-in tools and checks their steps' inputs against the arm's own JSON Schema.
 *
 * ```ts
 * const translator = { name: 'translator', description: 'Translates text.', tools: ['translate'], input_schema: { type: 'object', … } }
 * externalToolLines([translator]) // '- translator.translate input {"type":"object",…}: Translates text.'
 * ```
 *
 * Strict structured output cannot carry an arbitrary schema (every property required, none extra,
 * at every depth), so the model writes an external step's input as JSON text, `{ "json": "…" }`,
 * which is parsed and then checked against the arm's schema like any other input. The heuristic
 * path plans built-in arms only: it cannot know what an arm it has never seen is for.
 */
import Type, { type Static } from 'typebox'
import { Compile } from 'typebox/compile'

import { ArmNamePattern } from '../contract.js'

export const ExternalArm = Type.Object(
  {
    name: ArmNamePattern,
    description: Type.String({ maxLength: 2000 }),
    tools: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 64 }),
    input_schema: Type.Object({}, { additionalProperties: true }),
  },
  { additionalProperties: false },
)
export type ExternalArm = Static<typeof ExternalArm>

/** More would crowd the prompt past use; the orchestrator sends the first ones by name. */
export const MAX_EXTERNAL_ARMS = 16

/** An arm's schema in the prompt is cut here: the check after the reply still uses all of it. */
const SCHEMA_IN_PROMPT_CHARS = 1500

/** The one `input` shape of every external step in the plan's JSON Schema. */
export const EXTERNAL_INPUT_SCHEMA = {
  type: 'object',
  properties: { json: { type: 'string', description: "the step's input as JSON text" } },
  required: ['json'],
  additionalProperties: false,
} as const

/** One line per tool of each arm, for the model's prompt. */
export function externalToolLines(arms: readonly ExternalArm[]): string {
  const lines: string[] = []
  for (const arm of arms) {
    let schema = JSON.stringify(arm.input_schema)
    if (schema.length > SCHEMA_IN_PROMPT_CHARS) schema = `${schema.slice(0, SCHEMA_IN_PROMPT_CHARS)}…`
    for (const tool of arm.tools) lines.push(`- ${arm.name}.${tool} input ${schema}: ${arm.description}`)
  }
  return lines.join('\n')
}

type Validator = ReturnType<typeof Compile>

/** Compiled schemas by their JSON text: registrations are few and change rarely. */
const validators = new Map<string, Validator>()
const MAX_VALIDATORS = 256

/** The validator of `arm`'s input schema; undefined when it does not compile (no step can use the arm). */
export function externalValidator(arm: ExternalArm): Validator | undefined {
  const key = JSON.stringify(arm.input_schema)
  let validator = validators.get(key)
  if (validator === undefined) {
    try {
      validator = Compile(arm.input_schema as Parameters<typeof Compile>[0])
    } catch {
      return undefined
    }
    if (validators.size >= MAX_VALIDATORS) validators.clear()
    validators.set(key, validator)
  }
  return validator
}
