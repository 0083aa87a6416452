/**
 * Worker-thread entry of the `javascript` tool: instantiates QuickJS once from the compiled module
 * it is given, says it is ready, then evaluates one script per message, each in a fresh QuickJS
 * runtime (script-evaluation.ts). Scripts run off the service's event loop, and an abort can end
 * one at any instruction: the pool terminates the worker, which frees its whole WASM heap.
 *
 * ```ts
 * worker.postMessage({ id: 1, code: '1 + 1', limits, timeoutMs: 5_000 } satisfies ScriptJob)
 * // ← { id: 1, outcome: { ok: true, result: 2, console: [] } }
 * ```
 */
import { parentPort, workerData } from 'node:worker_threads'

import { instantiateQuickJS } from './quickjs-module.js'
import { evaluateScript, type ScriptLimits, type ScriptOutcome } from './script-evaluation.js'

export interface ScriptJob {
  id: number
  code: string
  limits: ScriptLimits
  timeoutMs: number
}

export type WorkerMessage = { ready: true } | { id: number; outcome: ScriptOutcome }

const port = parentPort!
const quickjs = await instantiateQuickJS((workerData as { wasmModule: WebAssembly.Module }).wasmModule)
port.on('message', (job: ScriptJob) => {
  port.postMessage({ id: job.id, outcome: evaluateScript(quickjs, job.code, job.limits, job.timeoutMs) } satisfies WorkerMessage)
})
port.postMessage({ ready: true } satisfies WorkerMessage)
