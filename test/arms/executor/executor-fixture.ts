// Calls the executor arm directly with the shared arm-context fixture: one tool, one input, an
// optional abort signal and dependency outputs. Real bubblewrap and real QuickJS: nothing mocked.

import type { Arm } from '../../../src/arms/contract.js'
import { createExecutorArm, type ExecutorOptions } from '../../../src/arms/executor/executor-arm.js'
import { armContext, executeRequest } from '../arm-context-fixture.js'

export function executor(opts: Partial<ExecutorOptions> = {}): Arm {
  return createExecutorArm({ fetchAllow: [], ...opts })
}

export interface CallOptions {
  signal?: AbortSignal
  depOutputs?: Record<string, unknown>
  timeoutMs?: number
}

export function call(arm: Arm, tool: string, input: Record<string, unknown>, opts: CallOptions = {}): Promise<unknown> {
  const { ctx } = armContext({ arm: 'executor', tool, ...(opts.signal && { signal: opts.signal }) })
  const request = executeRequest({
    tool,
    input,
    context: { dep_outputs: opts.depOutputs ?? {}, acceptance_criteria: [], constraints: {} },
    ...(opts.timeoutMs !== undefined && { timeout_ms: opts.timeoutMs }),
  })
  return arm.execute(request, ctx)
}
