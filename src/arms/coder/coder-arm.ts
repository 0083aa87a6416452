/**
 * The coder arm (DESIGN.md §7): writes code for a spec, or repairs code given its error. The code
 * is for the executor's `javascript` tool, which runs a dependency's `{ language, code }` and
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
import { ArmError, type Arm, type ArmContext, type ExecuteRequest } from '../contract.js'
import { modelCode, type CodeRequest } from './model-code.js'
import { codeFromTemplate } from './templates.js'

const Language = Type.String({ pattern: '^[a-z][a-z0-9+#-]{0,31}$' })

export const CoderInput = Type.Union([
  Type.Object({ language: Type.Optional(Language), spec: Type.String({ minLength: 1, maxLength: 20_000 }) }, { additionalProperties: false }),
  Type.Object(
    {
      language: Type.Optional(Language),
      code: Type.String({ minLength: 1, maxLength: 100_000 }),
      error: Type.String({ minLength: 1, maxLength: 20_000 }),
      spec: Type.Optional(Type.String({ maxLength: 20_000 })),
    },
    { additionalProperties: false },
  ),
])

export const CoderOutput = Type.Object({
  language: Type.String(),
  code: Type.String(),
  explanation: Type.String(),
  source: Type.Enum(['model', 'template']),
})
export type CoderOutput = Type.Static<typeof CoderOutput>

const FIELDS = { generate: ['language', 'spec'], repair: ['language', 'code', 'error', 'spec'] } as const

export function createCoderArm(): Arm {
  return {
    name: 'coder',
    capability: {
      arm_id: 'coder',
      name: 'coder',
      description: 'Writes self-contained code whose last expression is the answer (generate), or fixes code given its error (repair). Offline: built-in JavaScript templates for common computations.',
      capabilities: ['generate', 'repair'],
      input_schema: CoderInput,
      output_schema: CoderOutput,
      cost_tier: 'medium',
    },
    async execute(request, ctx) {
      if (request.tool !== 'generate' && request.tool !== 'repair') throw new ArmError('TOOL_UNKNOWN', `the coder has no tool '${request.tool}'`)
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
    if (request.language !== 'javascript') throw new ArmError('LANGUAGE_UNSUPPORTED', `no model is configured, and without one the coder writes only javascript, not ${request.language}`)
    const found = template()
    if (found) return found
    const what = request.kind === 'generate' ? `'${brief(request.spec)}'` : 'repairs need one'
    throw new ArmError('CODER_NEEDS_MODEL', `no model is configured and no built-in template fits: ${what}`, false)
  }
  try {
    return { ...(await modelCode(request, ctx.llm, ctx.signal)), source: 'model' }
  } catch (err) {
    if (ctx.signal.aborted || !(err instanceof LlmError)) throw err
    if (err.code === 'LLM_BUDGET_EXCEEDED' || err.code === 'LLM_ABORTED') throw new ArmError(err.code, err.message, false)
    const found = template()
    if (found === null) throw new ArmError(err.code, err.message, err.retryable)
    ctx.emit({ type: 'coder.fallback', data: { code: err.code, message: err.message } })
    return found
  }
}

function readInput(request: ExecuteRequest): CodeRequest {
  const input = request.input as Record<string, unknown>
  const tool = request.tool as keyof typeof FIELDS
  const unknown = Object.keys(input).filter((key) => !(FIELDS[tool] as readonly string[]).includes(key))
  if (unknown.length > 0) throw invalid(`unknown input ${unknown.map((k) => `'${k}'`).join(', ')} for ${tool}`)
  const language = input['language'] ?? 'javascript'
  if (typeof language !== 'string' || !/^[a-z][a-z0-9+#-]{0,31}$/.test(language)) throw invalid("'language' must be a language name such as 'javascript'")
  const criteria = request.context.acceptance_criteria
  const spec = text(input, 'spec', tool === 'generate', 20_000)
  if (tool === 'generate') return { kind: 'generate', language, spec: spec!, criteria }
  return {
    kind: 'repair', language, criteria,
    code: text(input, 'code', true, 100_000)!,
    error: text(input, 'error', true, 20_000)!,
    ...(spec !== undefined && { spec }),
  }
}

function text(input: Record<string, unknown>, key: string, required: boolean, max: number): string | undefined {
  const value = input[key]
  if (value === undefined && !required) return undefined
  if (typeof value !== 'string' || value.trim() === '') throw invalid(`'${key}' must be a non-empty string`)
  if (value.length > max) throw invalid(`'${key}' is longer than ${max} characters`)
  return value
}

function brief(spec: string): string {
  const one = spec.replace(/\s+/g, ' ').trim()
  return one.length <= 120 ? one : `${one.slice(0, 119)}…`
}

function invalid(message: string): ArmError {
  return new ArmError('INPUT_INVALID', message)
}
