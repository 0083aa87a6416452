/**
 * The one table of what a plan may use: each arm's tools, what they do and their input, declared
 * once with typebox. The model's prompt, the JSON Schema of the plan it must answer with and the
 * check of every plan (model or heuristic) are all generated from it.
 *
 * ```ts
 * toolLines(['retriever', 'guardian'])
 * // '- retriever.search input { query: string, k?: integer, summarise?: boolean }: Hybrid search …'
 * const schema = planJsonSchema(['retriever', 'guardian']) // strict: every property required, nulls for "absent"
 * ```
 *
 * The planner's own `plan` tool is not listed: a plan does not plan again.
 */
import Type, { type TObject, type TSchema } from 'typebox'

import type { BuiltinArm } from '../contract.js'
import { EXTERNAL_INPUT_SCHEMA, type ExternalArm } from './external-arms.js'

interface ToolSpec {
  does: string
  input: TObject
}

/** The most steps a plan may have, model or heuristic. */
export const MAX_PLAN_STEPS = 50

const text = (max = 20_000): TSchema => Type.String({ minLength: 1, maxLength: max })

export const PLAN_TOOLS: Readonly<Partial<Record<BuiltinArm, Readonly<Record<string, ToolSpec>>>>> = {
  retriever: {
    search: {
      does: 'Hybrid search of the knowledge base; summarise: true adds a summary of the hits.',
      input: Type.Object({
        query: text(2000),
        k: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
        summarise: Type.Optional(Type.Boolean()),
      }),
    },
    recall: {
      does: 'Past tasks similar to a goal (episodic memory).',
      input: Type.Object({ goal: Type.Optional(text(2000)), k: Type.Optional(Type.Integer({ minimum: 1, maximum: 20 })) }),
    },
  },
  executor: {
    shell: {
      does: 'Runs one allow-listed command (wc, sort, grep, head, cat…) in a sandbox; stdin is its input text. No shell syntax: command and argv.',
      input: Type.Object({
        command: text(256),
        args: Type.Optional(Type.Array(Type.String({ maxLength: 4096 }), { maxItems: 64 })),
        stdin: Type.Optional(Type.String({ maxLength: 1_000_000 })),
      }),
    },
    javascript: {
      does: 'Runs JavaScript in QuickJS and returns the value of its last expression; without code it runs the code a dependency (coder) produced.',
      input: Type.Object({ code: Type.Optional(text(100_000)) }),
    },
    http_fetch: {
      does: 'Fetches one URL (GET) and returns its text.',
      input: Type.Object({ url: Type.String({ minLength: 1, maxLength: 2048, pattern: '^https?://' }) }),
    },
  },
  coder: {
    generate: {
      does: 'Writes self-contained code for a spec; its last expression is the answer. Follow it with executor.javascript to run it.',
      input: Type.Object({ language: Type.Optional(Type.Literal('javascript')), spec: text() }),
    },
    repair: {
      does: 'Fixes code given the error it produced.',
      input: Type.Object({
        language: Type.Optional(Type.Literal('javascript')),
        code: text(100_000),
        error: text(),
        spec: Type.Optional(text()),
      }),
    },
  },
  judge: {
    validate: {
      does: "Checks its dependencies' outputs against criteria; without criteria, the task's acceptance criteria (given ones replace them).",
      input: Type.Object({ criteria: Type.Optional(Type.Array(Type.String({ maxLength: 2000 }), { maxItems: 50 })) }),
    },
  },
  guardian: {
    scrub: {
      does: 'Redacts personal data and secrets from text, or from all dependency outputs when text is absent. Plans end with one.',
      input: Type.Object({ text: Type.Optional(Type.String({ maxLength: 1_000_000 })) }),
    },
    screen: {
      does: 'Screens text for prompt injection and unsafe content.',
      input: Type.Object({ text: Type.Optional(Type.String({ maxLength: 1_000_000 })) }),
    },
  },
}

export const PLANNABLE_ARMS = Object.keys(PLAN_TOOLS) as BuiltinArm[]

export function toolSpec(arm: string, tool: string): ToolSpec | undefined {
  return Object.hasOwn(PLAN_TOOLS, arm) ? PLAN_TOOLS[arm as BuiltinArm]?.[tool] : undefined
}

/** One line per tool, for the model's prompt. */
export function toolLines(arms: readonly string[]): string {
  const lines: string[] = []
  for (const arm of arms) {
    for (const [tool, spec] of Object.entries(PLAN_TOOLS[arm as BuiltinArm] ?? {}))
      lines.push(`- ${arm}.${tool} input ${signature(spec.input)}: ${spec.does}`)
  }
  return lines.join('\n')
}

function signature(schema: TObject): string {
  const required = new Set<string>((schema.required as string[] | undefined) ?? [])
  const fields = Object.entries(schema.properties as Record<string, Record<string, unknown>>).map(
    ([key, prop]) => `${key}${required.has(key) ? '' : '?'}: ${typeName(prop)}`,
  )
  return `{ ${fields.join(', ')} }`
}

function typeName(prop: Record<string, unknown>): string {
  if ('const' in prop) return JSON.stringify(prop.const)
  if (prop.type === 'array') return `${typeName(prop.items as Record<string, unknown>)}[]`
  return String(prop.type)
}

/**
 * The plan's JSON Schema for structured output. Strict mode (OpenAI) wants every property required
 * and no extra ones, so an optional input field becomes "value or null" here; `dropNulls` undoes it.
 * The inputs are one `anyOf` of every allowed tool's input; which one belongs to which tool is
 * checked in code (`check-plan.ts`), since JSON Schema cannot tie `input` to `tool` simply.
 * Registered arms' steps take their input as JSON text (external-arms.ts).
 */
export function planJsonSchema(arms: readonly string[], external: readonly ExternalArm[] = []): Record<string, unknown> {
  const tools = arms.flatMap((arm) => Object.entries(PLAN_TOOLS[arm as BuiltinArm] ?? {}).map(([tool, spec]) => ({ arm, tool, spec })))
  const inputs: unknown[] = tools.map((t) => strict(t.spec.input))
  if (external.length > 0) inputs.push(EXTERNAL_INPUT_SCHEMA)
  const step = Type.Object(
    {
      step_id: Type.String({ pattern: '^s[0-9]+$' }),
      arm: Type.Enum([...new Set([...tools.map((t) => t.arm), ...external.map((e) => e.name)])]),
      tool: Type.Enum([...new Set([...tools.map((t) => t.tool), ...external.flatMap((e) => e.tools)])]),
      action: Type.String(),
      depends_on: Type.Array(Type.String()),
      input: Type.Unsafe({ anyOf: inputs }),
    },
    { additionalProperties: false },
  )
  const plan = Type.Object({ steps: Type.Array(step, { minItems: 1, maxItems: MAX_PLAN_STEPS }) }, { additionalProperties: false })
  return JSON.parse(JSON.stringify(plan)) as Record<string, unknown>
}

function strict(schema: TObject): Record<string, unknown> {
  const plain = JSON.parse(JSON.stringify(schema)) as { properties: Record<string, unknown>; required?: string[] }
  const required = new Set(plain.required ?? [])
  const properties = Object.fromEntries(
    Object.entries(plain.properties).map(([key, prop]) => [key, required.has(key) ? prop : { anyOf: [prop, { type: 'null' }] }]),
  )
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false }
}

/** Removes the nulls strict structured output uses for "absent". */
export function dropNulls(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null))
}
