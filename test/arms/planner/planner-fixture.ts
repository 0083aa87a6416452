// Calls the planner arm the way the orchestrator does, and checks what it returns with the
// orchestrator's own `checkPlan`, so a plan these tests accept is one the runner would run.

import { type ArmEvent, BUILTIN_ARMS } from '../../../src/arms/contract.js'
import type { ExternalArm } from '../../../src/arms/planner/external-arms.js'
import { createPlannerArm, type PlannerArmDeps, type PlannerOutput } from '../../../src/arms/planner/planner-arm.js'
import type { Llm } from '../../../src/llm/provider.js'
import { checkPlan } from '../../../src/orchestrator/runner/arm-planner.js'
import type { StoredTask } from '../../../src/stores/task.js'
import type { NewStep } from '../../../src/stores/task-store.js'
import { armContext, executeRequest } from '../arm-context-fixture.js'

export interface PlanOptions extends PlannerArmDeps {
  constraints?: StoredTask['constraints']
  acceptance_criteria?: string[]
  previous_failure?: string
  /** Registered arms, sent as `external_arms` and known to the orchestrator's check. */
  external_arms?: ExternalArm[]
  llm?: Llm
  maxTokens?: number
  signal?: AbortSignal
}

export interface Planned {
  output: PlannerOutput
  /** What the orchestrator's checkPlan made of it. */
  stored: NewStep[]
  events: ArmEvent[]
}

export async function plan(goal: string, opts: PlanOptions = {}): Promise<Planned> {
  const { constraints = {}, acceptance_criteria = [], previous_failure, external_arms, llm, maxTokens, signal, ...deps } = opts
  const arm = createPlannerArm(deps)
  const { ctx, events } = armContext({
    arm: 'planner',
    tool: 'plan',
    ...(llm && { llm }),
    ...(maxTokens !== undefined && { maxTokens }),
    ...(signal && { signal }),
  })
  const request = executeRequest({
    tool: 'plan',
    goal,
    input: {
      constraints,
      acceptance_criteria,
      ...(previous_failure !== undefined && { previous_failure }),
      ...(external_arms !== undefined && { external_arms }),
    },
  })
  const output = (await arm.execute(request, ctx)) as PlannerOutput
  const task = { goal, constraints, acceptance_criteria } as StoredTask
  const known = (name: string): boolean =>
    (BUILTIN_ARMS as readonly string[]).includes(name) || (external_arms ?? []).some((e) => e.name === name)
  const stored = checkPlan(output, task, known)
  return { output, stored, events }
}

/** A plan in one line a test can compare: `s1 retriever.search` or `s3 guardian.scrub <- s1,s2`. */
export function outline(output: PlannerOutput): string[] {
  return output.steps.map((s) => `${s.step_id} ${s.arm}.${s.tool}${s.depends_on.length ? ` <- ${s.depends_on.join(',')}` : ''}`)
}
