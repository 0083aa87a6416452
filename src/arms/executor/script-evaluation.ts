/**
 * One script in a fresh QuickJS runtime, run inside the `javascript` tool's worker thread: heap
 * and stack limits, an interrupt handler for the deadline, promise jobs run until the completion
 * value settles, and everything disposed on every path. Failures are returned as stable codes, not
 * thrown: they cross a thread boundary as plain data.
 *
 * The result is converted like JSON.stringify would, inside QuickJS, with the original
 * JSON.stringify captured before the script ran: undefined, functions and symbols become null at
 * the top and are left out inside objects (null in arrays), a BigInt becomes its decimal string,
 * a cycle is SCRIPT_ERROR.
 *
 * ```ts
 * evaluateScript(quickjs, '[1, 2].map((x) => x * 2)', limits, 5_000)
 * // → { ok: true, result: [2, 4], console: [] }
 * ```
 */
import type { QuickJSContext, QuickJSHandle, QuickJSWASMModule } from 'quickjs-emscripten-core'

import type { ExecutorLimits } from './limits.js'

export type ScriptLimits = Pick<ExecutorLimits, 'jsMemoryBytes' | 'jsStackBytes' | 'jsConsoleChars' | 'jsResultChars'>

export type ScriptOutcome =
  | { ok: true; result: unknown; console: string[] }
  | { ok: false; code: 'SCRIPT_ERROR' | 'SCRIPT_TIMEOUT' | 'SCRIPT_OUT_OF_MEMORY' | 'SCRIPT_RESULT_TOO_LARGE'; message: string }

const PRELUDE = `(() => {
  const stringify = JSON.stringify
  return (value) => stringify(value, (key, v) => typeof v === 'bigint' ? v.toString() : v)
})()`

class Failure extends Error {
  constructor(
    readonly code: Extract<ScriptOutcome, { ok: false }>['code'],
    message: string,
  ) {
    super(message)
  }
}

export function evaluateScript(quickjs: QuickJSWASMModule, code: string, limits: ScriptLimits, timeoutMs: number): ScriptOutcome {
  const deadline = Date.now() + timeoutMs
  let timedOut = false
  const runtime = quickjs.newRuntime()
  try {
    runtime.setMemoryLimit(limits.jsMemoryBytes)
    runtime.setMaxStackSize(limits.jsStackBytes)
    runtime.setInterruptHandler(() => (timedOut ||= Date.now() > deadline))
    const vm = runtime.newContext()
    try {
      const lines = captureConsole(vm, limits.jsConsoleChars)
      const toJson = vm.unwrapResult(vm.evalCode(PRELUDE, 'prelude.js'))
      try {
        const value = settle(vm, code)
        try {
          return { ok: true, result: convert(vm, toJson, value, limits.jsResultChars), console: lines }
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
    if (timedOut) return { ok: false, code: 'SCRIPT_TIMEOUT', message: `the script ran longer than ${timeoutMs} ms` }
    if (err instanceof Failure) return { ok: false, code: err.code, message: err.message }
    return { ok: false, code: 'SCRIPT_ERROR', message: `the script could not be run: ${(err as Error).message}` }
  } finally {
    runtime.dispose()
  }
}

/** Evaluates, then runs promise jobs until the completion value settles. Returns an owned handle. */
function settle(vm: QuickJSContext, code: string): QuickJSHandle {
  const evaluated = vm.evalCode(code, 'step.js')
  if (evaluated.error) throw thrown(vm, evaluated.error)
  const value = evaluated.value
  try {
    for (;;) {
      const state = vm.getPromiseState(value)
      if (state.type === 'fulfilled') return state.notAPromise ? value.dup() : state.value
      if (state.type === 'rejected') throw thrown(vm, state.error)
      const jobs = vm.runtime.executePendingJobs()
      if (jobs.error) throw thrown(vm, jobs.error)
      if (jobs.value === 0) throw new Failure('SCRIPT_ERROR', 'the script returned a promise that never settles')
    }
  } finally {
    value.dispose()
  }
}

function convert(vm: QuickJSContext, toJson: QuickJSHandle, value: QuickJSHandle, maxChars: number): unknown {
  const called = vm.callFunction(toJson, vm.undefined, value)
  if (called.error) throw thrown(vm, called.error, 'the result cannot be converted to JSON: ')
  const text = called.value
  try {
    if (vm.typeof(text) !== 'string') return null // undefined, a function, a symbol
    const json = vm.getString(text)
    if (json.length > maxChars) throw new Failure('SCRIPT_RESULT_TOO_LARGE', `the result is larger than ${maxChars} characters as JSON`)
    return JSON.parse(json) as unknown
  } finally {
    text.dispose()
  }
}

/** console.log/info/warn/error/debug record one line each, up to a total size. */
function captureConsole(vm: QuickJSContext, maxChars: number): string[] {
  const lines: string[] = []
  let chars = 0
  const consoleObject = vm.newObject()
  for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
    const fn = vm.newFunction(level, (...args) => {
      if (chars >= maxChars) return
      const text = args.map((arg) => (vm.typeof(arg) === 'string' ? vm.getString(arg) : printable(vm, arg))).join(' ')
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

function printable(vm: QuickJSContext, handle: QuickJSHandle): string {
  try {
    const value: unknown = vm.dump(handle)
    return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))
  } catch {
    return '[unprintable]'
  }
}

/** Turns a value thrown in QuickJS into a Failure; disposes it. */
function thrown(vm: QuickJSContext, error: QuickJSHandle, prefix = ''): Failure {
  let name = 'Uncaught'
  let message: string
  try {
    const dumped: unknown = vm.dump(error)
    if (typeof dumped === 'object' && dumped !== null && 'message' in dumped) {
      const e = dumped as { name?: unknown; message?: unknown }
      name = typeof e.name === 'string' ? e.name : 'Error'
      message = String(e.message)
    } else {
      message = typeof dumped === 'string' ? dumped : (JSON.stringify(dumped) ?? String(dumped))
    }
  } catch {
    // Dumping allocates; with the heap exhausted it can fail, and that says enough.
    name = 'InternalError'
    message = 'out of memory'
  } finally {
    error.dispose()
  }
  if (name === 'InternalError' && message === 'out of memory') {
    return new Failure('SCRIPT_OUT_OF_MEMORY', 'the script needed more memory than its limit')
  }
  return new Failure('SCRIPT_ERROR', `${prefix}${name}: ${message}`.slice(0, 2000))
}
