/**
 * The planner's model path: one structured-output request whose prompt is generated from the tool
 * table, with similar past tasks as examples and the last failure when re-planning. The reply is
 * checked again in code (plan-tools.ts cannot say in JSON Schema which input goes with which tool).
 *
 * ```ts
 * const steps = await modelPlan({ goal, allowed: null, constraints: {}, acceptanceCriteria: [], similar }, ctx.llm, ctx.signal)
 * ```
 *
 * Throws the model's LlmError, or a PlanError for a plan that does not pass the check; the arm
 * decides which of those fall back to the heuristic.
 */
import type { Llm } from '../../llm/provider.js'
import type { SimilarTask } from '../memory.js'
import { checkPlanSteps, PlanError, type PlanStep } from './check-plan.js'
import { type ExternalArm, externalToolLines } from './external-arms.js'
import { dropNulls, MAX_PLAN_STEPS, PLANNABLE_ARMS, planJsonSchema, toolLines } from './plan-tools.js'

export interface ModelPlanInput {
  /** Redacted. */
  goal: string
  allowed: readonly string[] | null
  constraints: Record<string, unknown> | string[]
  acceptanceCriteria: readonly string[]
  previousFailure?: string
  similar: readonly SimilarTask[]
  /** Registered arms the plan may also use. */
  external: readonly ExternalArm[]
}

/** Room for a plan of a dozen steps with their inputs. */
const PLAN_MAX_TOKENS = 2000

const schemas = new Map<string, Record<string, unknown>>()
/** Registered arms make the sets open-ended; a full map starts again. */
const MAX_SCHEMAS = 256

/** One schema object per set of arms: structured output compiles a validator per object. */
function schemaFor(arms: readonly string[], external: readonly ExternalArm[]): Record<string, unknown> {
  const key = `${arms.join(',')}|${external.map((e) => `${e.name}:${e.tools.join(',')}`).join(';')}`
  let schema = schemas.get(key)
  if (schema === undefined) {
    schema = planJsonSchema(arms, external)
    if (schemas.size >= MAX_SCHEMAS) schemas.clear()
    schemas.set(key, schema)
  }
  return schema
}

export async function modelPlan(input: ModelPlanInput, llm: Llm, signal: AbortSignal): Promise<PlanStep[]> {
  const arms = PLANNABLE_ARMS.filter((arm) => arm === 'guardian' || input.allowed === null || input.allowed.includes(arm))
  const external = input.external.filter((e) => input.allowed === null || input.allowed.includes(e.name))
  const done = await llm.complete(
    {
      messages: [
        { role: 'system', content: systemPrompt(arms, external) },
        { role: 'user', content: userPrompt(input) },
      ],
      schema: { name: 'plan', schema: schemaFor(arms, external) },
      maxTokens: PLAN_MAX_TOKENS,
      temperature: 0,
    },
    signal,
  )
  const raw = (done.json as { steps?: unknown } | undefined)?.steps
  if (!Array.isArray(raw)) throw new PlanError('the model returned no steps')
  const registered = new Set(external.map((e) => e.name))
  const steps = checkPlanSteps(
    raw.map((s: Record<string, unknown>, i) => ({ ...s, input: readInput(s, i, registered) })),
    input.allowed,
    external,
  )
  return endWithScrub(steps)
}

/** A built-in tool's input without the nulls strict mode wrote; a registered arm's parsed from its JSON text. */
function readInput(step: Record<string, unknown>, i: number, registered: ReadonlySet<string>): unknown {
  const input = step.input
  if (typeof step.arm === 'string' && registered.has(step.arm)) return fromJsonText(String(step.step_id ?? i + 1), input)
  return input && typeof input === 'object' ? dropNulls(input as Record<string, unknown>) : input
}

function fromJsonText(stepId: string, input: unknown): Record<string, unknown> {
  const text = (input as { json?: unknown } | null)?.json
  if (typeof text !== 'string') throw new PlanError(`step ${stepId}: a registered arm's input must be { "json": "<JSON text>" }`)
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new PlanError(`step ${stepId}: the input's JSON text does not parse`)
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new PlanError(`step ${stepId}: the input's JSON text is not an object`)
  return parsed as Record<string, unknown>
}

/** The guardian has the last word whatever the model wrote: a final scrub over the plan's ends. */
function endWithScrub(steps: PlanStep[]): PlanStep[] {
  const used = new Set(steps.flatMap((s) => s.depends_on))
  const leaves = steps.filter((s) => !used.has(s.step_id)).map((s) => s.step_id)
  const last = steps[steps.length - 1]!
  if (leaves.length === 1 && last.arm === 'guardian' && last.tool === 'scrub') return steps
  const ids = new Set(steps.map((s) => s.step_id))
  let n = steps.length + 1
  while (ids.has(`s${n}`)) n++
  return [
    ...steps,
    {
      step_id: `s${n}`,
      arm: 'guardian',
      tool: 'scrub',
      action: 'Scrub personal data and secrets from the results.',
      depends_on: leaves,
      input: {},
    },
  ]
}

function systemPrompt(arms: readonly string[], external: readonly ExternalArm[]): string {
  const registered =
    external.length === 0
      ? []
      : [
          '',
          'Registered arms (arm.tool, the JSON Schema of its input, what it does). Their input is given as JSON text: {"json": "<the input object as JSON>"}.',
          externalToolLines(external),
        ]
  return [
    'You plan tasks for Ganglion, a task orchestrator. A plan is a list of steps, each done by one tool of one arm.',
    'Tools you may use (arm.tool, its input, what it does):',
    toolLines(arms),
    ...registered,
    '',
    'Rules:',
    '- Step ids are s1, s2, … in order. depends_on lists only earlier step ids; a step gets the outputs of the steps it depends on.',
    '- Steps that do not need each other depend on nothing, so they run in parallel.',
    '- Plan what the user asked, with the tool made for it; do not refuse: the arms enforce their own limits.',
    '- Code to compute something: coder.generate, then executor.javascript with no code, depending on it.',
    '- When the task has acceptance criteria, a judge.validate step depends on the work steps.',
    '- The last step is guardian.scrub with no text, depending on the final step(s).',
    '- Give every input field; use null for an optional field you leave out. Actions are short plain sentences.',
    `- At most ${MAX_PLAN_STEPS} steps; as few as do the job.`,
  ].join('\n')
}

/** A past goal in the prompt is cut to this many characters, its plan to this many steps. */
export const PAST_GOAL_CHARS = 160
export const PAST_PLAN_STEPS = 12

/**
 * A past task as the planner needs it: its goal, short, and its plan's outline (`arm.tool` in
 * order). Not its outcome: the answer of another task does not help plan this one, and outcome
 * JSON made the prompt double. Every episode is of a completed task.
 */
function pastTaskLines(similar: readonly SimilarTask[]): string {
  return similar
    .map((t) => {
      const goal = t.goal.length > PAST_GOAL_CHARS ? `${t.goal.slice(0, PAST_GOAL_CHARS - 1)}…` : t.goal
      const outline = t.steps.slice(0, PAST_PLAN_STEPS).map((s) => (s.tool ? `${s.arm}.${s.tool}` : s.arm))
      return `- "${goal.replace(/\s+/g, ' ')}" (similarity ${t.score.toFixed(2)}): ${outline.join(' → ')}`
    })
    .join('\n')
}

function userPrompt(input: ModelPlanInput): string {
  const parts = [`Goal: ${input.goal}`]
  if (input.acceptanceCriteria.length > 0) parts.push(`Acceptance criteria:\n${input.acceptanceCriteria.map((c) => `- ${c}`).join('\n')}`)
  const constraints = Array.isArray(input.constraints)
    ? input.constraints
    : Object.keys(input.constraints).length > 0
      ? input.constraints
      : null
  if (constraints !== null) parts.push(`Constraints: ${JSON.stringify(constraints)}`)
  if (input.similar.length > 0) parts.push(`Similar past tasks that completed, for the shape of a plan:\n${pastTaskLines(input.similar)}`)
  if (input.previousFailure !== undefined)
    parts.push(`The previous plan failed: ${input.previousFailure}\nPlan differently so it does not fail the same way.`)
  return parts.join('\n\n')
}
