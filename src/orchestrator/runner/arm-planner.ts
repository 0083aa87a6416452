/**
 * Planning through the planner arm: the `TaskPlanner` the runner calls for `task.run` and for the
 * one re-plan after a failed validation. The arm answers with a DAG of steps; this checks it
 * against what the orchestrator can run before any of it is stored.
 *
 * ```ts
 * const planner = armPlanner({ arms: registry, tokens: issuer, store, stepTimeoutMs, detector })
 * const steps = await planner(task)                        // [{ step_id: 's1', arm: 'retriever', tool: 'search', … }]
 * const again = await planner(task, 'judge: missing "42"') // the failure goes to the arm as input
 * ```
 *
 * The criteria and constraints go as the goal does, personal data replaced by placeholders
 * (redacted-terms.ts). The failure goes as `previous_failure` the way the goal goes: personal data replaced by
 * placeholders (a judge's message quotes the output it refused). The planner arm takes up to
 * 20,000 characters; a longer one (a judge quoting a long output, a registered arm's verbose
 * refusal) is cut to fit rather than refused, so a task never loses its re-plan to the bound
 * (`failureForPlanner`, replan-reason.ts).
 */

import type { Detector } from '@ganglion/reflex'
import type { ArmLookup } from '../../arms/contract.js'
import { type ExternalArm, MAX_EXTERNAL_ARMS } from '../../arms/planner/external-arms.js'
import { StepError } from '../../step-errors.js'
import type { StoredTask } from '../../stores/task.js'
import type { NewStep } from '../../stores/task-store.js'
import { type CallArmDeps, callArm } from './call-arm.js'
import { scrubJudgedWork } from './judged-work.js'
import type { TaskPlanner } from './planner.js'
import { redactedTerms } from './redacted-terms.js'
import { failureForPlanner } from './replan-reason.js'

export interface ArmPlannerDeps extends CallArmDeps {
  detector: Detector
  /** Longest a plan may take to arrive. */
  planTimeoutMs?: number
}

const MAX_STEPS = 50

export function armPlanner(deps: ArmPlannerDeps): TaskPlanner {
  return async (task, feedback) => {
    const goal = deps.detector.redact(task.goal).redacted_text
    const { output, provenance } = await callArm(deps, {
      task,
      stepId: 'plan',
      arm: 'planner',
      tool: 'plan',
      action: feedback ? 'Plan the task again: the last plan failed validation.' : 'Plan the task.',
      goal,
      input: {
        ...redactedTerms(deps.detector, task),
        ...(feedback !== undefined && { previous_failure: failureForPlanner(deps.detector, feedback) }),
        external_arms: externalArms(deps.arms),
      },
      depOutputs: {},
      signal: AbortSignal.timeout(deps.planTimeoutMs ?? deps.stepTimeoutMs),
    })
    const steps = scrubJudgedWork(checkPlan(output, task, (arm) => deps.arms.get(arm) !== undefined))
    const { source, similar_tasks: similar, fallback } = output as { source?: unknown; similar_tasks?: unknown; fallback?: unknown }
    await deps.store.appendEvent(task.tenant, task.task_id, {
      type: 'task.planned',
      data: {
        source: typeof source === 'string' ? source : null,
        similar_tasks: Array.isArray(similar) ? similar : [],
        ...(isReason(fallback) && { fallback: { code: fallback.code, message: fallback.message } }),
        provenance,
      },
    })
    return steps
  }
}

/** The planner's `fallback`: why the model's plan was not used. */
function isReason(value: unknown): value is { code: string; message: string } {
  const v = value as { code?: unknown; message?: unknown } | null
  return typeof v?.code === 'string' && typeof v.message === 'string'
}

/** What the planner is told of the registered arms (the first ones by name: the prompt has room for so many). */
function externalArms(arms: ArmLookup): ExternalArm[] {
  return (arms.registered?.() ?? []).slice(0, MAX_EXTERNAL_ARMS).map(({ name, capability }) => ({
    name,
    description: capability.description,
    tools: capability.capabilities,
    input_schema: capability.input_schema,
  }))
}

/** The plan as the store takes it, or PLAN_INVALID (not retryable: the same planner would answer the same). */
export function checkPlan(output: unknown, task: StoredTask, known: (arm: string) => boolean): NewStep[] {
  const raw = (output as { steps?: unknown } | null)?.steps
  if (!Array.isArray(raw) || raw.length === 0) throw invalid('the planner returned no steps')
  if (raw.length > MAX_STEPS) throw invalid(`the plan has ${raw.length} steps; at most ${MAX_STEPS}`)
  const allowed = allowedArms(task)
  const seen = new Set<string>()
  const steps = raw.map((s: unknown, i): NewStep => {
    const step = s as Record<string, unknown>
    const id = step.step_id
    const arm = step.arm
    if (typeof id !== 'string' || id.length === 0 || id.length > 64) throw invalid(`step ${i + 1} has no usable step_id`)
    if (seen.has(id)) throw invalid(`step id ${id} is used twice`)
    seen.add(id)
    if (typeof arm !== 'string' || !known(arm)) throw invalid(`step ${id} names an unknown arm ${JSON.stringify(arm)}`)
    // The guardian is the system's own safety step: allowed_arms cannot remove it.
    if (allowed && arm !== 'guardian' && !allowed.includes(arm))
      throw invalid(`step ${id} uses ${arm}, which constraints.allowed_arms excludes`)
    const deps = step.depends_on ?? []
    if (!Array.isArray(deps) || !deps.every((d) => typeof d === 'string')) throw invalid(`step ${id} has a bad depends_on`)
    const tool = step.tool
    const input = step.input ?? {}
    if (typeof input !== 'object' || input === null || Array.isArray(input)) throw invalid(`step ${id} has a bad input`)
    return {
      step_id: id,
      arm,
      action: typeof step.action === 'string' ? step.action : `${arm} step`,
      depends_on: deps,
      input: input as Record<string, unknown>,
      ...(typeof tool === 'string' && { tool }),
    }
  })
  // Dependencies must name earlier steps: that rules out both unknown ids and cycles.
  const before = new Set<string>()
  for (const step of steps) {
    for (const dep of step.depends_on ?? []) {
      if (!before.has(dep)) throw invalid(`step ${step.step_id} depends on ${dep}, which is not an earlier step`)
    }
    before.add(step.step_id)
  }
  return steps
}

function allowedArms(task: StoredTask): string[] | null {
  if (Array.isArray(task.constraints)) return null
  const arms = task.constraints.allowed_arms
  return Array.isArray(arms) ? arms.filter((a): a is string => typeof a === 'string') : null
}

function invalid(message: string): StepError {
  return new StepError('PLAN_INVALID', message)
}
