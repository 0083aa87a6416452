// What the arm host hands an arm, built for calling one arm directly in a unit test: a request with
// defaults, a context with a verified-looking claim, a budgeted model (offline unless given) and the
// events the arm emitted. The host itself (token checks, provenance) is tested in test/arms/host.
import { type ArmContext, ArmError, type ArmEvent, type ExecuteRequest } from '../../src/arms/contract.js'
import { BudgetedLlm } from '../../src/llm/budgeted-llm.js'
import { OfflineProvider } from '../../src/llm/offline-provider.js'
import type { Llm } from '../../src/llm/provider.js'

/** The tenant of the task every context is for, unless a test names another. */
export const ARM_TENANT = 'tenant-1'

export interface ContextOptions {
  arm: string
  tool: string
  /** The task's tenant, as its capability token says; default ARM_TENANT. */
  tenant?: string
  llm?: Llm
  /** The call's token allowance; default none. */
  maxTokens?: number | null
  signal?: AbortSignal
}

export function armContext(opts: ContextOptions): { ctx: ArmContext; events: ArmEvent[]; llm: BudgetedLlm } {
  const events: ArmEvent[] = []
  const llm = new BudgetedLlm(opts.llm ?? new OfflineProvider(), opts.maxTokens ?? null)
  const ctx: ArmContext = {
    signal: opts.signal ?? new AbortController().signal,
    claims: {
      arm: opts.arm,
      taskId: 'task-1',
      tenant: opts.tenant ?? ARM_TENANT,
      stepId: 's1',
      scope: [opts.tool],
      tokenId: 'jti-1',
      expiresAt: Math.floor(Date.now() / 1000) + 60,
    },
    llm,
    emit: (event) => void events.push(event),
  }
  return { ctx, events, llm }
}

export function executeRequest(partial: Partial<ExecuteRequest> & { tool: string }): ExecuteRequest {
  return {
    task_id: 'task-1',
    step_id: 's1',
    action: '',
    goal: '',
    input: {},
    context: { dep_outputs: {}, acceptance_criteria: [], constraints: {} },
    budget: { max_tokens: null },
    timeout_ms: 30_000,
    ...partial,
  }
}

/** The ArmError a call threw; fails loudly when it threw something else or nothing. */
export async function armErrorOf(call: Promise<unknown>, what = 'the arm'): Promise<ArmError> {
  try {
    await call
  } catch (err) {
    if (err instanceof ArmError) return err
    throw err
  }
  throw new Error(`${what} did not throw`)
}
