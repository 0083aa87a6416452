/**
 * How many shell sandboxes run at once in this process: each is a few processes with their own
 * CPU and memory limits, so without a bound a burst of steps could start hundreds of them and
 * starve the service. A caller past the bound waits its turn, first come first served, for at most
 * its step's time budget; an abort ends the wait at once.
 *
 * ```ts
 * const slots = new SandboxSlots(4)
 * if (!(await slots.acquire(30_000, signal))) throw timeout // no slot within the budget
 * try { await runSandbox() } finally { slots.release() }
 * ```
 */
import { abortError } from './abort.js'

export class SandboxSlots {
  private running = 0
  private readonly waiting: Array<() => void> = []

  constructor(readonly size: number) {
    if (!Number.isSafeInteger(size) || size < 1) throw new TypeError('the number of sandboxes at once must be a positive integer')
  }

  /** True once a slot is held; false when none came free within `ms`. Rejects on abort. */
  acquire(ms: number, signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return Promise.reject(abortError(signal))
    if (this.running < this.size) {
      this.running++
      return Promise.resolve(true)
    }
    return new Promise((resolve, reject) => {
      const leave = (): void => {
        clearTimeout(timer)
        signal.removeEventListener('abort', onAbort)
        const at = this.waiting.indexOf(wake)
        if (at >= 0) this.waiting.splice(at, 1)
      }
      const wake = (): void => {
        leave()
        this.running++
        resolve(true)
      }
      const onAbort = (): void => {
        leave()
        reject(abortError(signal))
      }
      const timer = setTimeout(() => {
        leave()
        resolve(false)
      }, ms)
      signal.addEventListener('abort', onAbort, { once: true })
      this.waiting.push(wake)
    })
  }

  release(): void {
    this.running--
    this.waiting[0]?.()
  }

  /** Sandboxes running now, and callers waiting for one. */
  get active(): number {
    return this.running
  }

  get queued(): number {
    return this.waiting.length
  }
}
