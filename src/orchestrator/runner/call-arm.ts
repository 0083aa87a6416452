/**
 * One call from the orchestrator to an arm, the same for a plan step and for planning itself:
 * hold the call's share of the token budget, sign a capability token for exactly this arm, task,
 * step and tool, call the arm (in-process or over HTTP), record what it reported (its events, the
 * tokens it spent) and release the hold.
 *
 * ```ts
 * const done = await callArm(deps, { task, stepId: 's2', arm: 'executor', tool: 'shell', action,
 *   goal, input: { command: 'wc', args: ['-l'], stdin }, depOutputs: {}, signal })
 * done.output; done.provenance.token_id
 * ```
 *
 * A failed step comes back as `StepError` with the arm's code and retryability; the tokens it spent
 * are charged all the same.
 *
 * Cost (docs/security.md, "Quotas"): with the model's price known, every call's usage is charged
 * in dollars too (the `budget.usage` event's `cost_usd`). A task with `budget.max_cost_usd` holds
 * its dollars like its tokens: a call may spend only the tokens the dollars left buy at the dearer
 * of the two per-token prices, so it cannot pass the budget; with none left the arm's model call is
 * refused `LLM_BUDGET_EXCEEDED`, the code of an exhausted token budget.
 */
import type { Detector } from '@ganglion/reflex'
import { ARM_TOOLS, type ArmLookup, BUILTIN_ARMS, type ExecuteRequest, type Provenance } from '../../arms/contract.js'
import type { CapabilityGrant } from '../../auth/capability-issuer.js'
import { costUsd, type ModelPrice, worstPerToken } from '../../llm/prices.js'
import { StepError } from '../../step-errors.js'
import type { StoredTask } from '../../stores/task.js'
import type { TaskStore } from '../../stores/task-store.js'
import { inSpan, SpanKind } from '../../telemetry/tracing.js'
import { redactedTerms } from './redacted-terms.js'
import type { RunnerLog, RunnerMetrics } from './runner-context.js'

/** The capability-token issuer as the runner needs it. */
export interface StepTokenSigner {
  sign(grant: CapabilityGrant): Promise<{ token: string }>
}

export interface CallArmDeps {
  arms: ArmLookup
  tokens: StepTokenSigner
  store: TaskStore
  /** Longest one call may take; also the token's lifetime. */
  stepTimeoutMs: number
  metrics?: Pick<RunnerMetrics, 'modelTokens'> | undefined
  /** `provider/model` of the configured model, for logs when an arm reports none. */
  model?: string
  /** The price model calls are charged at; undefined: unknown, nothing is charged in dollars. */
  price?: ModelPrice | undefined
  /** Takes personal data out of the task's criteria and constraints before they leave (redacted-terms.ts). */
  detector: Pick<Detector, 'redact'>
  /** Where an arm's fallback from its model (`planner.fallback`, `coder.fallback`) is logged, at warn. */
  log?: Pick<RunnerLog, 'warn'>
}

export interface ArmCall {
  task: StoredTask
  stepId: string
  arm: string
  tool: string | null
  action: string
  /** Redacted. */
  goal: string
  input: Record<string, unknown>
  depOutputs: Record<string, unknown>
  signal: AbortSignal
  /**
   * Model-using steps of the task that may run now, this one included: each holds an equal share
   * of what is left of the budget. Default 1.
   */
  share?: number
}

export interface ArmCallResult {
  output: unknown
  provenance: Provenance
}

/** Arms that never call a model: they hold no budget. Every other arm (external ones too) may. */
const MODEL_FREE_ARMS: ReadonlySet<string> = new Set(['executor', 'guardian'])

export function usesModel(arm: string): boolean {
  return !MODEL_FREE_ARMS.has(arm)
}

/** The task's token budget: the smaller of `constraints.max_tokens` and `budget.max_tokens`, or null. */
export function tokenLimit(task: StoredTask): number | null {
  const fromConstraints = Array.isArray(task.constraints) ? undefined : task.constraints.max_tokens
  const limits = [fromConstraints, task.budget.max_tokens].filter((n): n is number => typeof n === 'number')
  return limits.length === 0 ? null : Math.min(...limits)
}

export async function callArm(deps: CallArmDeps, call: ArmCall): Promise<ArmCallResult> {
  const { task, stepId, arm } = call
  const endpoint = deps.arms.get(arm)
  if (!endpoint) throw new StepError('ARM_UNKNOWN', `no arm named ${JSON.stringify(arm)} is registered`)
  const tool = call.tool ?? defaultTool(arm)
  const held = await hold(deps, task, arm, call.share ?? 1)
  const allowance = held.tokens
  let used = 0
  let spentUsd = 0
  try {
    const { token } = await deps.tokens.sign({
      arm,
      taskId: task.task_id,
      // The arm reads the task's knowledge and memory in this tenant only (the signed `tenant` claim).
      tenant: task.tenant,
      stepId,
      scope: [tool],
      ttlSeconds: Math.ceil(deps.stepTimeoutMs / 1000),
    })
    const request: ExecuteRequest = {
      task_id: task.task_id,
      step_id: stepId,
      tool,
      action: call.action,
      goal: call.goal,
      input: call.input,
      context: { dep_outputs: call.depOutputs, ...redactedTerms(deps.detector, task) },
      budget: { max_tokens: allowance },
      timeout_ms: deps.stepTimeoutMs,
    }
    // A client span per call: an arm service's server span (and its model calls) are its children.
    const attributes = { 'ganglion.task.id': task.task_id, 'ganglion.step.id': stepId, 'ganglion.arm': arm, 'ganglion.tool': tool }
    const response = await inSpan(`arm ${arm}`, { kind: SpanKind.CLIENT, attributes }, undefined, async (span) => {
      const answer = await endpoint.execute(request, token, call.signal).catch((err: unknown) => {
        throw asStepError(err)
      })
      span?.setAttributes({
        'ganglion.arm.status': answer.status,
        'gen_ai.usage.input_tokens': answer.provenance.tokens.prompt,
        'gen_ai.usage.output_tokens': answer.provenance.tokens.completion,
      })
      return answer
    })
    used = response.provenance.tokens.total
    const { prompt, completion } = response.provenance.tokens
    if (deps.price !== undefined) spentUsd = costUsd({ prompt, completion }, deps.price)
    for (const event of response.events) {
      await deps.store.appendEvent(task.tenant, task.task_id, { type: event.type, data: { step_id: stepId, ...event.data } })
      if (event.type.endsWith('.fallback')) logFallback(deps, call, event.data as Record<string, unknown>, response.provenance.model)
    }
    if (used > 0) {
      deps.metrics?.modelTokens(response.provenance.model, prompt, completion)
      await deps.store.appendEvent(task.tenant, task.task_id, {
        type: 'budget.usage',
        data: {
          step_id: stepId,
          prompt,
          completion,
          model: response.provenance.model,
          ...(deps.price !== undefined && { cost_usd: spentUsd }),
        },
      })
    }
    if (response.status === 'failed') {
      if (response.error.code === 'LLM_BUDGET_EXCEEDED') {
        await deps.store.appendEvent(task.tenant, task.task_id, { type: 'budget.exceeded', data: { step_id: stepId, allowance } })
      }
      throw StepError.reported(response.error)
    }
    return { output: response.output, provenance: response.provenance }
  } finally {
    if ((allowance ?? 0) > 0 || used > 0 || held.usd > 0 || spentUsd > 0)
      await deps.store.settleTokens(task.tenant, task.task_id, allowance ?? 0, used, { heldUsd: held.usd, spentUsd })
  }
}

/**
 * An arm that used its rule path because the model failed says so in an event; operators see it at
 * warn: the task, the step, the model, and the code and message of the failure (never a prompt:
 * the messages are the providers' and the plan check's own).
 */
function logFallback(deps: CallArmDeps, call: ArmCall, data: Record<string, unknown>, model: string | null): void {
  const reason = { code: data.code, message: typeof data.message === 'string' ? data.message.slice(0, 500) : undefined }
  deps.log?.warn(
    { task_id: call.task.task_id, step_id: call.stepId, arm: call.arm, provider: model ?? deps.model ?? null, reason },
    'the model failed; the arm fell back to its rule path',
  )
}

interface Hold {
  /** Tokens this call may spend: null without a budget, 0 for an arm that never calls a model. */
  tokens: number | null
  /** Dollars held with them (a cost budget at a known price), else 0. */
  usd: number
}

async function hold(deps: CallArmDeps, task: StoredTask, arm: string, share: number): Promise<Hold> {
  const usdPerToken = deps.price !== undefined && task.budget.max_cost_usd !== undefined ? worstPerToken(deps.price) : 0
  if (tokenLimit(task) === null && usdPerToken === 0) return { tokens: null, usd: 0 }
  if (!usesModel(arm)) return { tokens: 0, usd: 0 }
  const grant = await deps.store.reserveTokens(task.tenant, task.task_id, Number.MAX_SAFE_INTEGER, Math.max(1, share), usdPerToken)
  return { tokens: grant?.granted ?? 0, usd: grant?.heldUsd ?? 0 }
}

function defaultTool(arm: string): string {
  const tools = (BUILTIN_ARMS as readonly string[]).includes(arm) ? ARM_TOOLS[arm as keyof typeof ARM_TOOLS] : undefined
  if (!tools?.[0]) throw new StepError('STEP_INVALID', `the step names no tool and arm ${arm} has no default`)
  return tools[0]
}

/** A transport failure from an arm client: keep its code and retryability when it has them. */
function asStepError(err: unknown): StepError {
  if (err instanceof StepError) return err
  const e = err as { code?: unknown; retryable?: unknown; message?: unknown }
  const message = typeof e?.message === 'string' ? e.message : String(err)
  if (typeof e?.code === 'string' && typeof e.retryable === 'boolean')
    return StepError.reported({ code: e.code, message, retryable: e.retryable })
  return new StepError('ARM_UNREACHABLE', message)
}
