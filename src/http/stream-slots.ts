/**
 * Caps on open streams (Server-Sent Events): so many per caller, so many in all. Each open
 * stream holds a socket and reads the store whenever its task has news, so without a cap one
 * client could open thousands.
 *
 * ```ts
 * const slots = new StreamSlots({ perCaller: 20, total: 2000 })
 * const release = slots.take(caller)   // or throws the 429 to answer
 * try { await serveTheStream() } finally { release() }
 * ```
 *
 * A cap of 0 switches it off.
 */
import { HttpError } from './errors.js'

export interface StreamLimits {
  /** Streams one caller may hold open at once (0: no cap). */
  perCaller: number
  /** Streams the process holds open at once (0: no cap). */
  total: number
}

/** How long a refused client is told to wait before trying again, in seconds. */
const RETRY_AFTER_SECONDS = 5

export class StreamSlots {
  readonly #limits: StreamLimits
  readonly #open = new Map<string, number>()
  #total = 0

  constructor(limits: StreamLimits) {
    this.#limits = limits
  }

  /** Takes a slot for `caller`: the function that gives it back (once, however often called). */
  take(caller: string): () => void {
    const { perCaller, total } = this.#limits
    const held = this.#open.get(caller) ?? 0
    if (perCaller > 0 && held >= perCaller) throw refused(perCaller, 'streams open for this caller')
    if (total > 0 && this.#total >= total) throw refused(total, 'streams open on this server')
    this.#open.set(caller, held + 1)
    this.#total++
    let released = false
    return () => {
      if (released) return
      released = true
      this.#total--
      const left = (this.#open.get(caller) ?? 1) - 1
      if (left === 0) this.#open.delete(caller)
      else this.#open.set(caller, left)
    }
  }

  /** The streams open now, in all. */
  get open(): number {
    return this.#total
  }
}

function refused(cap: number, what: string): HttpError {
  return new HttpError(
    'RATE_LIMIT',
    `Too many open streams: at most ${cap} ${what}; close one or retry in ${RETRY_AFTER_SECONDS} s`,
    { field: 'stream', constraint: `at most ${cap} ${what}` },
    { 'retry-after': String(RETRY_AFTER_SECONDS) },
  )
}
