/**
 * The coder's model path: one structured-output request for `{ language, code, explanation }`,
 * with a prompt that asks for code the executor can run as it is: self-contained, no imports, no
 * I/O, and a last expression whose value is the answer.
 *
 * ```ts
 * await modelCode({ kind: 'generate', language: 'javascript', spec: 'the 20th Fibonacci number' }, ctx.llm, ctx.signal)
 * // { language: 'javascript', code: '…\nfib(20)', explanation: '…' }
 * ```
 */
import Type from 'typebox'

import type { Llm } from '../../llm/provider.js'

export type CodeRequest =
  | { kind: 'generate'; language: string; spec: string; criteria: readonly string[] }
  | { kind: 'repair'; language: string; code: string; error: string; spec?: string; criteria: readonly string[] }

/** Strict structured output: every property required, no others. */
const CodeReply = Type.Object(
  { language: Type.String(), code: Type.String({ minLength: 1 }), explanation: Type.String() },
  { additionalProperties: false },
)
export type CodeReply = Type.Static<typeof CodeReply>

const SCHEMA = { name: 'code', schema: JSON.parse(JSON.stringify(CodeReply)) as Record<string, unknown> }

/** Room for a page of code and its explanation. */
const CODE_MAX_TOKENS = 2000

export async function modelCode(request: CodeRequest, llm: Llm, signal: AbortSignal): Promise<CodeReply> {
  const done = await llm.complete(
    {
      messages: [
        { role: 'system', content: systemPrompt(request.language) },
        { role: 'user', content: userPrompt(request) },
      ],
      schema: SCHEMA,
      maxTokens: CODE_MAX_TOKENS,
      temperature: 0,
    },
    signal,
  )
  const reply = done.json as CodeReply
  // The language is the one asked for: the executor picks its runtime by it.
  return { language: request.language, code: reply.code, explanation: reply.explanation }
}

function systemPrompt(language: string): string {
  const runtime =
    language === 'javascript'
      ? 'It runs in QuickJS: plain ECMAScript, no require or import, no fs, no network, no timers, no process.'
      : 'It runs in a sandbox with the standard library only: no network, no files, no input.'
  return [
    `You write small, correct, self-contained ${language} programs.`,
    runtime,
    'The value of the last expression statement is the result: end with an expression that evaluates to the answer',
    '(a number, string, boolean, array or plain object; convert a BigInt to a string). Do not print it, do not export it,',
    'and do not leave a function defined but uncalled. No comments beyond what a reader needs.',
    'Answer with JSON: language, code, and a one or two sentence explanation of the method.',
  ].join('\n')
}

function userPrompt(request: CodeRequest): string {
  const criteria = request.criteria.length > 0 ? `\n\nThe result must meet:\n${request.criteria.map((c) => `- ${c}`).join('\n')}` : ''
  if (request.kind === 'generate') return `Write ${request.language} code for: ${request.spec}${criteria}`
  return (
    [
      `This ${request.language} code failed. Fix it, keeping what it was for.`,
      ...(request.spec !== undefined ? [`It was written for: ${request.spec}`] : []),
      `Code:\n${request.code}`,
      `Error:\n${request.error}`,
    ].join('\n\n') + criteria
  )
}
