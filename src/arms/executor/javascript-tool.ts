/**
 * The `javascript` tool: a script evaluated in QuickJS compiled to WebAssembly, a fresh runtime per
 * call with a heap limit, a stack limit and an interrupt handler for time and abort. The script
 * gets the language and nothing of the host: no require, no fs, no network, no timers; `console`
 * is the one host function, and it only records lines.
 *
 * The result is the script's completion value; a promise is awaited (its jobs run inside the
 * runtime, under the same limits). It is converted like JSON.stringify would, run inside QuickJS
 * with the original JSON captured before the script ran: undefined, functions and symbols become
 * null at the top and are left out inside objects, a BigInt becomes its decimal string, a cycle is
 * SCRIPT_ERROR.
 *
 * ```ts
 * await js.run({ code: 'function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) } fib(20)' }, …)
 * // → { result: 6765, console: [], duration_ms: 9 }
 * ```
 */
import variant from '@jitl/quickjs-wasmfile-release-sync'
import { type QuickJSContext, type QuickJSHandle, type QuickJSWASMModule, newQuickJSWASMModuleFromVariant } from 'quickjs-emscripten-core'

import { ArmError, type ExecuteRequest } from '../contract.js'
import { abortError } from './abort.js'
import * as check from './input.js'
import type { ExecutorLimits } from './limits.js'

export interface JavascriptOutput {
  result: unknown
  console: string[]
  duration_ms: number
}

// The variant's package maps `types` to its CommonJS typings, so TypeScript sees the module
// namespace where Node's ESM loader gives the variant itself: the cast restores the real type.
type Variant = Parameters<typeof newQuickJSWASMModuleFromVariant>[0]
let wasm: Promise<QuickJSWASMModule> | undefined

/** The WASM module, compiled once per process; each call gets its own runtime from it. */
export function loadQuickJS(): Promise<QuickJSWASMModule> {
  wasm ??= newQuickJSWASMModuleFromVariant(variant as unknown as Variant)
  wasm.catch(() => { wasm = undefined }) // a failed load is tried again by the next call
  return wasm
}

const PRELUDE = `(() => {
  const stringify = JSON.stringify
  return (value) => stringify(value, (key, v) => typeof v === 'bigint' ? v.toString() : v)
})()`

/** Why the interrupt handler stopped the script. */
type Stop = 'timeout' | 'aborted' | undefined

export class JavascriptTool {
  constructor(private readonly limits: Readonly<ExecutorLimits>) {}

  async run(request: ExecuteRequest, stepTimeoutMs: number, signal: AbortSignal): Promise<JavascriptOutput> {
    const input = request.input as Record<string, unknown>
    check.refuseUnknown(input, ['code', 'timeout_ms'])
    const code = check.optionalString(input, 'code', this.limits.jsCodeBytes) ?? codeFromDependencies(request)
    if (check.utf8Bytes(code) > this.limits.jsCodeBytes) throw check.invalid(`'code' is larger than ${this.limits.jsCodeBytes} bytes`)
    const timeoutMs = Math.min(check.optionalInteger(input, 'timeout_ms', 1, 86_400_000) ?? this.limits.jsTimeoutMs, stepTimeoutMs)
    if (signal.aborted) throw abortError(signal)

    const quickjs = await loadQuickJS()
    const started = performance.now()
    const deadline = Date.now() + timeoutMs
    let stop: Stop
    const runtime = quickjs.newRuntime()
    try {
      runtime.setMemoryLimit(this.limits.jsMemoryBytes)
      runtime.setMaxStackSize(this.limits.jsStackBytes)
      runtime.setInterruptHandler(() => {
        if (signal.aborted) stop ??= 'aborted'
        else if (Date.now() > deadline) stop ??= 'timeout'
        return stop !== undefined
      })
      const vm = runtime.newContext()
      try {
        const lines = captureConsole(vm, this.limits.jsConsoleChars)
        const toJson = vm.unwrapResult(vm.evalCode(PRELUDE, 'prelude.js'))
        try {
          const value = this.evaluate(vm, code, () => stop)
          try {
            const json = this.convert(vm, toJson, value, () => stop)
            return { result: json, console: lines, duration_ms: Math.round(performance.now() - started) }
          } finally {
            value.dispose()
          }
        } finally {
          toJson.dispose()
        }
      } finally {
        vm.dispose()
      }
    } catch (err) {
      if (stop === 'aborted') throw abortError(signal)
      if (stop === 'timeout') throw new ArmError('SCRIPT_TIMEOUT', `the script ran longer than ${timeoutMs} ms`, false)
      throw err
    } finally {
      runtime.dispose()
    }
  }

  /** Evaluates, then runs promise jobs until the completion value settles. Returns an owned handle. */
  private evaluate(vm: QuickJSContext, code: string, stop: () => Stop): QuickJSHandle {
    const evaluated = vm.evalCode(code, 'step.js')
    if (evaluated.error) throw scriptError(vm, evaluated.error, stop)
    const value = evaluated.value
    try {
      for (;;) {
        const state = vm.getPromiseState(value)
        if (state.type === 'fulfilled') {
          if (state.notAPromise) return value.dup()
          return state.value
        }
        if (state.type === 'rejected') throw scriptError(vm, state.error, stop)
        const jobs = vm.runtime.executePendingJobs()
        if (jobs.error) throw scriptError(vm, jobs.error, stop)
        const ran = jobs.value
        if (ran === 0) throw new ArmError('SCRIPT_ERROR', 'the script returned a promise that never settles', false)
      }
    } finally {
      value.dispose()
    }
  }

  private convert(vm: QuickJSContext, toJson: QuickJSHandle, value: QuickJSHandle, stop: () => Stop): unknown {
    const called = vm.callFunction(toJson, vm.undefined, value)
    if (called.error) throw scriptError(vm, called.error, stop, 'the result cannot be converted to JSON: ')
    const text = called.value
    try {
      if (vm.typeof(text) !== 'string') return null // undefined, a function, a symbol
      const json = vm.getString(text)
      if (json.length > this.limits.jsResultChars) {
        throw new ArmError('SCRIPT_RESULT_TOO_LARGE', `the result is larger than ${this.limits.jsResultChars} characters as JSON`, false)
      }
      return JSON.parse(json) as unknown
    } finally {
      text.dispose()
    }
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

/** console.log/info/warn/error/debug record one line each, up to a total size. */
function captureConsole(vm: QuickJSContext, maxChars: number): string[] {
  const lines: string[] = []
  let chars = 0
  const consoleObject = vm.newObject()
  for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
    const fn = vm.newFunction(level, (...args) => {
      if (chars >= maxChars) return
      const text = args.map((arg) => (vm.typeof(arg) === 'string' ? vm.getString(arg) : safeDump(vm, arg))).join(' ')
      const line = level === 'log' || level === 'info' ? text : `[${level}] ${text}`
      const kept = line.slice(0, maxChars - chars)
      chars += kept.length
      lines.push(kept.length < line.length ? `${kept}…` : kept)
    })
    vm.setProp(consoleObject, level, fn)
    fn.dispose()
  }
  vm.setProp(vm.global, 'console', consoleObject)
  consoleObject.dispose()
  return lines
}

function safeDump(vm: QuickJSContext, handle: QuickJSHandle): string {
  try {
    const value: unknown = vm.dump(handle)
    return typeof value === 'string' ? value : JSON.stringify(value) ?? String(value)
  } catch {
    return '[unprintable]'
  }
}

/** Turns a thrown QuickJS value into SCRIPT_ERROR, SCRIPT_OUT_OF_MEMORY or a stop; disposes it. */
function scriptError(vm: QuickJSContext, error: QuickJSHandle, stop: () => Stop, prefix = ''): Error {
  let name = 'Error'
  let message = ''
  try {
    const dumped: unknown = vm.dump(error)
    if (typeof dumped === 'object' && dumped !== null) {
      const e = dumped as { name?: unknown; message?: unknown }
      name = typeof e.name === 'string' ? e.name : name
      message = typeof e.message === 'string' ? e.message : JSON.stringify(dumped)
    } else {
      name = 'Uncaught'
      message = String(dumped)
    }
  } catch {
    // Dumping allocates; with the heap exhausted it can fail, and that says enough.
    message = 'out of memory'
    name = 'InternalError'
  } finally {
    error.dispose()
  }
  if (stop() !== undefined) return new Error('interrupted') // the caller maps the stop reason
  if (name === 'InternalError' && message === 'out of memory') {
    return new ArmError('SCRIPT_OUT_OF_MEMORY', `the script needed more than its memory limit`, false)
  }
  return new ArmError('SCRIPT_ERROR', `${prefix}${name}: ${message}`.slice(0, 2000), false)
}
