/**
 * The planner arm (docs/arms/planner.md): turns a goal into a DAG of arm steps. With a reasoning
 * model (`ctx.llm.reasoning`) the model writes the plan; without one, or when the model's answer is
 * unusable, a deterministic heuristic reads the goal's intents. Either plan is checked against the
 * tool table before it leaves.
 *
 * ```ts
 * const planner = createPlannerArm({ memory, detector })
 * await planner.execute({ …request, tool: 'plan', goal: 'Count the lines of: a\nb', input: { constraints: {}, acceptance_criteria: [] } }, ctx)
 * // { steps: [{ step_id: 's1', arm: 'executor', tool: 'shell', … }, { step_id: 's2', arm: 'guardian', tool: 'scrub', … }],
 * //   source: 'heuristic', similar_tasks: [] }
 * ```
 *
 * `source` is 'model', 'heuristic' (no model configured) or 'heuristic_fallback' (the model failed
 * or planned badly; a `planner.fallback` event and the output's `fallback` say why). Running out of
 * budget and being aborted are not fallbacks: they end the call. Nor is a model failure on a goal
 * the rule planner reads no work in (no intent, or a rule plan it refuses): its plan could only
 * search the knowledge base for the goal and "complete" with a miss, so the call fails with the
 * model's code (`LLM_UNAVAILABLE` for a timeout, retryable) instead.
 */

import type { Detector } from '@ganglion/reflex'
import Type from 'typebox'
import { LlmError } from '../../llm/provider.js'
import { type Arm, type ArmContext, ArmError, type ExecuteRequest } from '../contract.js'
import { type EpisodicMemory, PLAN_MEMORY_DEFAULTS, type SimilarTask } from '../memory.js'
import { checkPlanSteps, PlanError, type PlanStep } from './check-plan.js'
import { readIntents } from './goal-intents.js'
import { heuristicPlan } from './heuristic-plan.js'
import { modelPlan } from './model-plan.js'
import { MAX_PLAN_STEPS } from './plan-tools.js'
import { PlannerInput, readPlannerInput } from './planner-input.js'

export interface PlannerArmDeps {
  /** Completed tasks, for examples; without it plans are made from the goal alone. */
  memory?: EpisodicMemory
  /** For its routing hint when the heuristic recognises no intent. */
  detector?: Detector
  /** Least similarity (0..1) of a past task shown to the model (PLAN_MEMORY_MIN_SIMILARITY). */
  minSimilarity?: number
}

const Step = Type.Object({
  step_id: Type.String(),
  arm: Type.String(),
  tool: Type.String(),
  action: Type.String(),
  depends_on: Type.Array(Type.String()),
  input: Type.Record(Type.String(), Type.Unknown()),
})

export const PlannerOutput = Type.Object({
  steps: Type.Array(Step, { minItems: 1, maxItems: MAX_PLAN_STEPS }),
  source: Type.Enum(['model', 'heuristic', 'heuristic_fallback']),
  similar_tasks: Type.Array(Type.Object({ task_id: Type.String(), goal: Type.String(), score: Type.Number() })),
  /** Why the model's plan was not used, with source `heuristic_fallback`. */
  fallback: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
})
export type PlannerOutput = Type.Static<typeof PlannerOutput>

/**
 * How many past tasks are asked for; only those at least `minSimilarity` alike are shown to the
 * model and reported (`similar_tasks`).
 */
const SIMILAR_K = 3

export function createPlannerArm(deps: PlannerArmDeps = {}): Arm {
  return {
    name: 'planner',
    capability: {
      arm_id: 'planner',
      name: 'planner',
      description:
        'Turns a goal into a plan: a DAG of steps over the other arms, written by the model or, offline, by a deterministic reading of the goal.',
      capabilities: ['plan'],
      input_schema: PlannerInput,
      output_schema: PlannerOutput,
      cost_tier: 'medium',
    },
    async execute(request, ctx) {
      if (request.tool !== 'plan') throw new ArmError('TOOL_UNKNOWN', `the planner has no tool '${request.tool}'`)
      return plan(request, ctx, deps)
    },
  }
}

async function plan(request: ExecuteRequest, ctx: ArmContext, deps: PlannerArmDeps): Promise<PlannerOutput> {
  const input = readPlannerInput(request)
  // The task's own tenant only: a plan never sees another tenant's past goals.
  const least = deps.minSimilarity ?? PLAN_MEMORY_DEFAULTS.minSimilarity
  const similar = (await similarTasks(deps.memory, ctx.claims.tenant, input.goal, ctx.signal)).filter((s) => s.score >= least)
  const similar_tasks = similar.map(({ task_id, goal, score }) => ({ task_id, goal, score }))
  const heuristic = (): PlanStep[] => {
    const suggestedArms = deps.detector?.check(input.goal, { checkInjection: false }).routing.suggested_arms
    const steps = heuristicPlan({ ...input, ...(suggestedArms && { suggestedArms }) })
    try {
      return checkPlanSteps(steps, input.allowed)
    } catch (err) {
      throw new ArmError('PLAN_INVALID', `the heuristic planned badly: ${(err as Error).message}`)
    }
  }
  if (!ctx.llm.reasoning) return { steps: heuristic(), source: 'heuristic', similar_tasks }
  try {
    const steps = await modelPlan({ ...input, similar }, ctx.llm, ctx.signal)
    return { steps, source: 'model', similar_tasks }
  } catch (err) {
    if (ctx.signal.aborted) throw err
    if (err instanceof LlmError && (err.code === 'LLM_BUDGET_EXCEEDED' || err.code === 'LLM_ABORTED'))
      throw new ArmError(err.code, err.message)
    if (!(err instanceof LlmError || err instanceof PlanError)) throw err
    const fallback = { code: err instanceof LlmError ? err.code : 'PLAN_INVALID', message: err.message }
    if (!readIntents(input.goal).some((i) => i.kind !== 'validate')) throw modelFailure(err)
    let steps: PlanStep[]
    try {
      steps = heuristic()
    } catch (refused) {
      if (refused instanceof ArmError) throw modelFailure(err)
      throw refused
    }
    ctx.emit({ type: 'planner.fallback', data: fallback })
    return { steps, source: 'heuristic_fallback', similar_tasks, fallback }
  }
}

/** The model's failure as the call's, when the rule planner has nothing better to offer. */
function modelFailure(err: LlmError | PlanError): ArmError {
  const message = `the model could not plan (${err.message}), and the rule planner recognises no work in the goal`
  return err instanceof LlmError ? new ArmError(err.code, message, err.retryable) : new ArmError('PLAN_INVALID', message)
}

/** Past tasks are a help, not a need: a memory that fails leaves the planner without examples. */
async function similarTasks(memory: EpisodicMemory | undefined, tenant: string, goal: string, signal: AbortSignal): Promise<SimilarTask[]> {
  if (memory === undefined) return []
  try {
    return await memory.similar(tenant, goal, SIMILAR_K, signal)
  } catch (err) {
    if (signal.aborted) throw err
    return []
  }
}
