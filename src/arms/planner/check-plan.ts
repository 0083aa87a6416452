/**
 * Every plan is checked here before the planner returns it, whoever wrote it: a model's plan that
 * fails is replaced by the heuristic one, a heuristic plan that fails is a bug (tests run this).
 * Stricter than the orchestrator's `checkPlan`: it also knows each arm's tools and their inputs.
 *
 * ```ts
 * const steps = checkPlanSteps(json.steps, ['retriever'])  // PlanStep[] or a PlanError saying why
 * checkPlanSteps(json.steps, null, [translator])           // also steps for a registered arm, checked by its schema
 * ```
 */
import { Compile } from 'typebox/compile'

import { type ExternalArm, externalValidator } from './external-arms.js'
import { MAX_PLAN_STEPS, toolSpec } from './plan-tools.js'

export interface PlanStep {
  step_id: string
  arm: string
  tool: string
  action: string
  depends_on: string[]
  input: Record<string, unknown>
}

export class PlanError extends Error {
  override name = 'PlanError'
}

const validators = new Map<string, ReturnType<typeof Compile>>()

function validatorFor(arm: string, tool: string, external: readonly ExternalArm[]): ReturnType<typeof Compile> | undefined {
  const key = `${arm}.${tool}`
  const spec = toolSpec(arm, tool)
  if (spec === undefined) {
    const registered = external.find((e) => e.name === arm)
    return registered?.tools.includes(tool) ? externalValidator(registered) : undefined
  }
  let validator = validators.get(key)
  if (validator === undefined) {
    validator = Compile(spec.input)
    validators.set(key, validator)
  }
  return validator
}

/**
 * `allowed`: `constraints.allowed_arms`, or null; the guardian is always allowed. `external`: the
 * registered arms a step may also use (their names never shadow a built-in arm's).
 */
export function checkPlanSteps(raw: unknown, allowed: readonly string[] | null, external: readonly ExternalArm[] = []): PlanStep[] {
  if (!Array.isArray(raw) || raw.length === 0) throw new PlanError('the plan has no steps')
  if (raw.length > MAX_PLAN_STEPS) throw new PlanError(`the plan has ${raw.length} steps; at most ${MAX_PLAN_STEPS}`)
  const before = new Set<string>()
  return raw.map((value: unknown, i) => {
    const step = (value ?? {}) as Record<string, unknown>
    const { step_id: id, arm, tool, action, depends_on: deps, input } = step
    if (typeof id !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new PlanError(`step ${i + 1} has no usable step_id`)
    if (before.has(id)) throw new PlanError(`step id ${id} is used twice`)
    if (typeof arm !== 'string' || typeof tool !== 'string') throw new PlanError(`step ${id} names no arm or tool`)
    const validator = validatorFor(arm, tool, external)
    if (validator === undefined) throw new PlanError(`step ${id}: ${arm}.${tool} is not a tool a plan can use`)
    if (allowed !== null && arm !== 'guardian' && !allowed.includes(arm))
      throw new PlanError(`step ${id} uses ${arm}, which allowed_arms excludes`)
    if (typeof action !== 'string' || action.trim() === '') throw new PlanError(`step ${id} has no action`)
    if (!Array.isArray(deps) || !deps.every((d) => typeof d === 'string')) throw new PlanError(`step ${id} has a bad depends_on`)
    // Earlier steps only: rules out unknown ids and cycles at once.
    for (const dep of deps) if (!before.has(dep)) throw new PlanError(`step ${id} depends on ${dep}, which is not an earlier step`)
    if (typeof input !== 'object' || input === null || Array.isArray(input) || !validator.Check(input)) {
      const first = validator.Errors(input)[0]
      throw new PlanError(`step ${id}: bad input for ${arm}.${tool}${first ? ` (${first.instancePath || '/'} ${first.message})` : ''}`)
    }
    before.add(id)
    return {
      step_id: id,
      arm,
      tool,
      action: action.trim(),
      depends_on: [...new Set(deps as string[])],
      input: input as Record<string, unknown>,
    }
  })
}
