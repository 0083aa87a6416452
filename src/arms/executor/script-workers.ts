/**
 * A small pool of worker threads that run scripts (javascript-worker.ts). A worker is started
 * when needed, up to `size`, kept while it behaves, and terminated when its script is aborted or
 * does not answer in time: a fresh one replaces it on demand. Every script still gets a fresh
 * QuickJS runtime; the worker only saves starting a thread and instantiating WASM per call.
 *
 * ```ts
 * const pool = new ScriptWorkers(4)
 * const outcome = await pool.run({ code, limits, timeoutMs }, signal) // rejects with the abort reason
 * await pool.close()
 * ```
 */
import { extname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'

import { abortError } from './abort.js'
import type { ScriptJob, WorkerMessage } from './javascript-worker.js'
import { compiledQuickJS } from './quickjs-module.js'
import type { ScriptOutcome } from './script-evaluation.js'

// Beside this file, with its extension: .js when built, .ts when the tests run the sources.
const WORKER_URL = new URL(`./javascript-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url)
/** How long past its own deadline a worker may take to answer before it is terminated. */
const GRACE_MS = 1_000

export class ScriptWorkers {
  private readonly idle: Worker[] = []
  private readonly waiting: Array<(worker: Worker | undefined) => void> = []
  private count = 0
  private nextId = 1
  private closed = false

  constructor(private readonly size: number) {}

  async run(job: Omit<ScriptJob, 'id'>, signal: AbortSignal): Promise<ScriptOutcome> {
    const worker = await this.acquireUnlessAborted(signal)
    const id = this.nextId++
    return new Promise((resolve, reject) => {
      const done = (keep: boolean, action: () => void): void => {
        clearTimeout(backstop)
        signal.removeEventListener('abort', onAbort)
        worker.off('message', onMessage)
        worker.off('exit', onExit)
        if (keep) this.release(worker)
        else this.discard(worker)
        action()
      }
      const onMessage = (message: WorkerMessage): void => {
        if ('id' in message && message.id === id) done(true, () => resolve(message.outcome))
      }
      const onExit = (): void =>
        done(false, () => resolve({ ok: false, code: 'SCRIPT_ERROR', message: 'the script sandbox stopped without an answer' }))
      const onAbort = (): void => done(false, () => reject(abortError(signal)))
      // The interrupt handler ends a script at its deadline; this ends a worker that did not answer.
      const backstop = setTimeout(
        () => done(false, () => resolve({ ok: false, code: 'SCRIPT_TIMEOUT', message: `the script ran longer than ${job.timeoutMs} ms` })),
        job.timeoutMs + GRACE_MS,
      )
      signal.addEventListener('abort', onAbort, { once: true })
      worker.on('message', onMessage)
      worker.once('exit', onExit)
      worker.postMessage({ ...job, id } satisfies ScriptJob)
    })
  }

  async close(): Promise<void> {
    this.closed = true
    for (const wake of this.waiting.splice(0)) wake(undefined)
    await Promise.all(this.idle.splice(0).map((worker) => worker.terminate()))
  }

  /** Waiting for a worker (starting, or all busy) ends at once on abort; the worker, once there, is kept. */
  private acquireUnlessAborted(signal: AbortSignal): Promise<Worker> {
    if (signal.aborted) return Promise.reject(abortError(signal))
    return new Promise((resolve, reject) => {
      const onAbort = (): void => reject(abortError(signal))
      signal.addEventListener('abort', onAbort, { once: true })
      this.acquire().then(
        (worker) => {
          signal.removeEventListener('abort', onAbort)
          if (signal.aborted) this.release(worker)
          else resolve(worker)
        },
        (err: unknown) => {
          signal.removeEventListener('abort', onAbort)
          reject(err instanceof Error ? err : new Error(String(err)))
        },
      )
    })
  }

  private async acquire(): Promise<Worker> {
    if (this.closed) throw new Error('the script workers are closed')
    const idle = this.idle.pop()
    if (idle) return idle
    if (this.count < this.size) {
      this.count++
      try {
        return await this.start()
      } catch (err) {
        this.count--
        this.wakeOne()
        throw err
      }
    }
    const worker = await new Promise<Worker | undefined>((resolve) => this.waiting.push(resolve))
    if (!worker) return this.acquire() // a slot was freed, or the pool closed
    return worker
  }

  private release(worker: Worker): void {
    const wake = this.waiting.shift()
    if (wake) wake(worker)
    else this.idle.push(worker)
  }

  private discard(worker: Worker): void {
    void worker.terminate()
    this.count--
    this.wakeOne()
  }

  private wakeOne(): void {
    this.waiting.shift()?.(undefined)
  }

  private async start(): Promise<Worker> {
    const wasmModule = await compiledQuickJS()
    // The V8 heap of a worker holds only glue; a script's heap is QuickJS's, limited apart.
    const worker = new Worker(WORKER_URL, { workerData: { wasmModule }, resourceLimits: { maxOldGenerationSizeMb: 256 } })
    worker.unref() // an idle pool never keeps the process alive
    await new Promise<void>((resolve, reject) => {
      const onMessage = (message: WorkerMessage): void => {
        if (!('ready' in message)) return
        worker.off('error', reject)
        worker.off('message', onMessage)
        resolve()
      }
      worker.on('message', onMessage)
      worker.once('error', reject)
    })
    // An error after start-up (its heap limit, say) ends the worker; `exit` then settles its call.
    worker.on('error', () => {})
    return worker
  }
}
