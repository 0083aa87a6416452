/**
 * The `javascript` tool: a script evaluated in QuickJS compiled to WebAssembly (script-evaluation.ts),
 * a fresh runtime per call, on a worker thread (script-workers.ts). The script gets the language and
 * nothing of the host: no require, no fs, no network, no timers; `console` is the one host function,
 * and it only records lines. The worker keeps a long script off the service's event loop, and lets
 * an abort stop a script at any instruction: the worker is terminated, freeing its whole WASM heap.
 *
 * ```ts
 * await js.run(request, 30_000, signal) // request.input = { code: 'fib(20)' } or the coder's output
 * // → { result: 6765, console: [], duration_ms: 41 }
 * ```
 */
import { ArmError, type ExecuteRequest } from '../contract.js'
import { abortError } from './abort.js'
import * as check from './input.js'
import type { ExecutorLimits } from './limits.js'
import { ScriptWorkers } from './script-workers.js'

export interface JavascriptOutput {
  result: unknown
  console: string[]
  duration_ms: number
}

export class JavascriptTool {
  private readonly workers: ScriptWorkers

  constructor(private readonly limits: Readonly<ExecutorLimits>) {
    this.workers = new ScriptWorkers(limits.jsWorkers)
  }

  close(): Promise<void> {
    return this.workers.close()
  }

  async run(request: ExecuteRequest, stepTimeoutMs: number, signal: AbortSignal): Promise<JavascriptOutput> {
    const input = request.input as Record<string, unknown>
    check.refuseUnknown(input, ['code', 'timeout_ms'])
    const code = check.optionalString(input, 'code', this.limits.jsCodeBytes) ?? codeFromDependencies(request)
    if (check.utf8Bytes(code) > this.limits.jsCodeBytes) throw check.invalid(`'code' is larger than ${this.limits.jsCodeBytes} bytes`)
    const timeoutMs = Math.min(check.optionalInteger(input, 'timeout_ms', 1, 86_400_000) ?? this.limits.jsTimeoutMs, stepTimeoutMs)
    if (signal.aborted) throw abortError(signal)

    const { jsMemoryBytes, jsStackBytes, jsConsoleChars, jsResultChars } = this.limits
    const started = performance.now()
    const outcome = await this.workers.run(
      { code, timeoutMs, limits: { jsMemoryBytes, jsStackBytes, jsConsoleChars, jsResultChars } },
      signal,
    )
    if (!outcome.ok) throw new ArmError(outcome.code, outcome.message, false)
    return { result: outcome.result, console: outcome.console, duration_ms: Math.round(performance.now() - started) }
  }
}

/** The coder arm's output among the dependencies: `{ language: 'javascript', code }`. */
function codeFromDependencies(request: ExecuteRequest): string {
  for (const output of Object.values(request.context.dep_outputs)) {
    if (typeof output !== 'object' || output === null) continue
    const { language, code } = output as Record<string, unknown>
    if (language === 'javascript' && typeof code === 'string') return code
  }
  throw check.invalid("'code' is required when no dependency output is JavaScript code ({ language: 'javascript', code })")
}
