/**
 * The coder arm (docs/arms/coder.md): writes code for a spec, or repairs code given its error. The
 * code is for the executor's `javascript` tool, which runs a dependency's `{ language, code }` and
 * returns the value of its last expression.
 *
 * ```ts
 * const coder = createCoderArm()
 * await coder.execute({ …request, tool: 'generate', input: { spec: 'the 20th Fibonacci number' } }, ctx)
 * // { language: 'javascript', code: 'function fibonacci(n) { … }\nfibonacci(20)', explanation: '…', source: 'template' }
 * ```
 *
 * With a reasoning model the model writes the code (`source: 'model'`). Offline, a library of
 * templates (templates.ts) covers common computations in JavaScript; a spec none of them fits is
 * CODER_NEEDS_MODEL, as is every repair, and another language is LANGUAGE_UNSUPPORTED. When the
 * model fails (bad output, unreachable) and a template fits, the template answers and a
 * `coder.fallback` event says why; running out of budget or being aborted ends the call.
 */
import Type from 'typebox'

import { LlmError } from '../../llm/provider.js'
import { type Arm, type ArmContext, ArmError, checkedInput, type ExecuteRequest } from '../contract.js'
import { type CodeRequest, modelCode } from './model-code.js'
import { codeFromTemplate } from './templates.js'

const Language = Type.String({ pattern: '^[a-z][a-z0-9+#-]{0,31}$', description: "a language name such as 'javascript' (the default)" })
/** Text with something in it besides white space. */
const Text = (maxLength: number) => Type.String({ minLength: 1, maxLength, pattern: '\\S' })

const GenerateInput = Type.Object({ language: Type.Optional(Language), spec: Text(20_000) }, { additionalProperties: false })
const RepairInput = Type.Object(
  { language: Type.Optional(Language), code: Text(100_000), error: Text(20_000), spec: Type.Optional(Text(20_000)) },
  { additionalProperties: false },
)

/** What the capability publishes; each tool's call is checked against its own half. */
export const CoderInput = Type.Union([GenerateInput, RepairInput])

export const CoderOutput = Type.Object({
  language: Type.String(),
  code: Type.String(),
  explanation: Type.String(),
  source: Type.Enum(['model', 'template']),
})
export type CoderOutput = Type.Static<typeof CoderOutput>

export function createCoderArm(): Arm {
  return {
    name: 'coder',
    capability: {
      arm_id: 'coder',
      name: 'coder',
      description:
        'Writes self-contained code whose last expression is the answer (generate), or fixes code given its error (repair). Offline: built-in JavaScript templates for common computations.',
      capabilities: ['generate', 'repair'],
      input_schema: CoderInput,
      output_schema: CoderOutput,
      cost_tier: 'medium',
    },
    async execute(request, ctx) {
      if (request.tool !== 'generate' && request.tool !== 'repair')
        throw new ArmError('TOOL_UNKNOWN', `the coder has no tool '${request.tool}' (generate, repair)`)
      return write(readInput(request), ctx)
    },
  }
}

async function write(request: CodeRequest, ctx: ArmContext): Promise<CoderOutput> {
  const template = (): CoderOutput | null => {
    if (request.kind !== 'generate' || request.language !== 'javascript') return null
    const found = codeFromTemplate(request.spec)
    return found && { language: 'javascript', code: found.code, explanation: found.explanation, source: 'template' }
  }
  if (!ctx.llm.reasoning) {
    if (request.language !== 'javascript')
      throw new ArmError(
        'LANGUAGE_UNSUPPORTED',
        `no model is configured, and without one the coder writes only javascript, not ${request.language}`,
      )
    const found = template()
    if (found) return found
    const what = request.kind === 'generate' ? `'${brief(request.spec)}'` : 'repairs need one'
    throw new ArmError('CODER_NEEDS_MODEL', `no model is configured and no built-in template fits: ${what}`)
  }
  try {
    return { ...(await modelCode(request, ctx.llm, ctx.signal)), source: 'model' }
  } catch (err) {
    if (ctx.signal.aborted || !(err instanceof LlmError)) throw err
    if (err.code === 'LLM_BUDGET_EXCEEDED' || err.code === 'LLM_ABORTED') throw new ArmError(err.code, err.message)
    const found = template()
    if (found === null) throw new ArmError(err.code, err.message, err.retryable)
    ctx.emit({ type: 'coder.fallback', data: { code: err.code, message: err.message } })
    return found
  }
}

function readInput(request: ExecuteRequest): CodeRequest {
  const criteria = request.context.acceptance_criteria
  if (request.tool === 'generate') {
    const { language = 'javascript', spec } = checkedInput(GenerateInput, request.input, 'input')
    return { kind: 'generate', language, spec, criteria }
  }
  const { language = 'javascript', code, error, spec } = checkedInput(RepairInput, request.input, 'input')
  return { kind: 'repair', language, criteria, code, error, ...(spec !== undefined && { spec }) }
}

function brief(spec: string): string {
  const one = spec.replace(/\s+/g, ' ').trim()
  return one.length <= 120 ? one : `${one.slice(0, 119)}…`
}
