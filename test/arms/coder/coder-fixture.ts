// Calls the coder arm directly and runs the code it wrote, as the executor would: the value of
// the last expression is the answer (node:vm here, QuickJS in the executor; both are ECMAScript).
import { runInNewContext } from 'node:vm'

import { type CoderOutput, createCoderArm } from '../../../src/arms/coder/coder-arm.js'
import type { ArmEvent } from '../../../src/arms/contract.js'
import type { Llm } from '../../../src/llm/provider.js'
import { armContext, executeRequest } from '../arm-context-fixture.js'

export async function callCoder(
  tool: string,
  input: Record<string, unknown>,
  opts: { llm?: Llm; criteria?: string[] } = {},
): Promise<{ output: CoderOutput; events: ArmEvent[] }> {
  const { ctx, events } = armContext({ arm: 'coder', tool, ...(opts.llm && { llm: opts.llm }) })
  const request = executeRequest({ tool, input, context: { dep_outputs: {}, acceptance_criteria: opts.criteria ?? [], constraints: {} } })
  return { output: (await createCoderArm().execute(request, ctx)) as CoderOutput, events }
}

/** Runs code with nothing of the host in reach, and a time limit. */
export function run(code: string): unknown {
  return runInNewContext(code, Object.create(null), { timeout: 5000 })
}
