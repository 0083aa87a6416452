// Calls the judge arm directly: dependency outputs, criteria and input in, the output (or the
// ArmError it threw) out. The model is offline unless a test passes one.
import { ArmError } from '../../../src/arms/contract.js'
import { createJudgeArm, type JudgeOutput } from '../../../src/arms/judge/judge-arm.js'
import type { Llm } from '../../../src/llm/provider.js'
import { armContext, armErrorOf, executeRequest } from '../arm-context-fixture.js'

export interface JudgeCall {
  deps: Record<string, unknown>
  input?: Record<string, unknown>
  criteria?: string[]
  goal?: string
  llm?: Llm
}

export async function judge(call: JudgeCall): Promise<JudgeOutput> {
  const { ctx } = armContext({ arm: 'judge', tool: 'validate', ...(call.llm && { llm: call.llm }) })
  const request = executeRequest({
    tool: 'validate',
    goal: call.goal ?? '',
    input: call.input ?? {},
    context: { dep_outputs: call.deps, acceptance_criteria: call.criteria ?? [], constraints: {} },
  })
  return (await createJudgeArm().execute(request, ctx)) as JudgeOutput
}

/** The ArmError the call threw; fails loudly when it did not throw one. */
export function judgeError(call: JudgeCall): Promise<ArmError> {
  return armErrorOf(judge(call), 'the judge')
}

/** Passed or not, without caring how: for tables of cases. */
export async function verdict(call: JudgeCall): Promise<boolean> {
  try {
    await judge(call)
    return true
  } catch (err) {
    if (err instanceof ArmError && err.code === 'VALIDATION_FAILED') return false
    throw err
  }
}

/** What shell, javascript and coder steps produce. */
export const SHELL_OK = { exit_code: 0, stdout: '6765\n', stderr: '', truncated: false, duration_ms: 12 }
export const JS_RESULT = { result: 6765, console: ['computing fib(20)'], duration_ms: 3 }
