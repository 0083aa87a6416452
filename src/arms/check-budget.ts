/**
 * The time the guardian's and the judge's checks of one call may take on the event loop, shared
 * by every check of that call: patterns and schemas from check definitions, blocked terms over
 * outputs, the detector's scans. A client writes the patterns, the terms and (through its goal)
 * the outputs, and in-process arms run on the orchestrator's event loop, so without a bound one
 * step could hold `/api/v1/health` and every other request for as long as its checks take.
 *
 * Two bounds, documented in docs/security.md (Event loop and budgets):
 *
 * - each bounded run stops at its own limit, never above `RUN_LIMIT_MS`: the vm watchdog
 *   interrupts any JavaScript, a backtracking regex included. Native work (the detector) cannot be
 *   interrupted; it is linear and only counted;
 * - all runs of one call together stop at the budget (`CHECK_BUDGET_MS`, default 2000 ms); past
 *   it, CheckBudgetError naming the budget.
 *
 * Between runs, `breathe()` hands the event loop back whenever the call has held it for
 * `RUN_LIMIT_MS` since it last did, so other requests are answered while a long check goes on.
 * The budget counts the call's time from its start less its waits in `breathe`: its own work,
 * not other requests', so a busy process does not fail checks that would have fit.
 *
 * ```ts
 * const budget = new CheckBudget(2_000)
 * const matched = budget.run(() => re.test(text), 100, 'matching') // or throws CheckBudgetError
 * const scanned = budget.count(() => detector.check(text))        // native: counted, not cut
 * await budget.breathe()                                           // lets the event loop run
 * ```
 */
import vm from 'node:vm'

/** The longest one bounded run may hold the event loop. */
export const RUN_LIMIT_MS = 250
/** The default budget of one call's checks. */
export const DEFAULT_CHECK_BUDGET_MS = 2_000

/** A run stopped at its own limit, or (`spent`) a call past its budget; the message says which. */
export class CheckBudgetError extends Error {
  constructor(
    message: string,
    readonly spent = false,
  ) {
    super(message)
  }
}

// one context and one compiled script for every bounded call: a fresh context costs about 0.5 ms
const sandbox = vm.createContext({ call: undefined as (() => unknown) | undefined })
const runCall = new vm.Script('call()')

export class CheckBudget {
  private readonly startedAt = performance.now()
  /** Time spent waiting for the event loop in `breathe`, which is not the call's own. */
  private waitedMs = 0
  private heldSince = this.startedAt

  constructor(readonly totalMs: number) {}

  /** The call's own time so far: since it began, less its waits for the event loop. */
  get spentMs(): number {
    return performance.now() - this.startedAt - this.waitedMs
  }

  /**
   * `fn` stopped at `capMs` (at most RUN_LIMIT_MS), or less when less of the budget is left;
   * CheckBudgetError naming the budget when that is what stopped it (or nothing is left).
   */
  run<T>(fn: () => T, capMs: number, what: string): T {
    const left = Math.floor(this.totalMs - this.spentMs)
    if (left < 1) throw this.spent()
    const cap = Math.min(capMs, RUN_LIMIT_MS)
    const limit = Math.min(cap, left)
    try {
      return runBounded(fn, limit, what)
    } catch (err) {
      if (err instanceof CheckBudgetError && limit < cap) throw this.spent()
      throw err
    }
  }

  /** Runs `fn` (native work that cannot be interrupted); CheckBudgetError after it when the budget is spent. */
  count<T>(fn: () => T): T {
    const result = fn()
    if (this.spentMs >= this.totalMs) throw this.spent()
    return result
  }

  /**
   * Awaits `work` (native work on libuv's pool, the event loop free meanwhile); CheckBudgetError
   * after it when the budget is spent. Its wall time counts: it is the call's, though not the loop's.
   */
  async countAsync<T>(work: () => Promise<T>): Promise<T> {
    if (this.spentMs >= this.totalMs) throw this.spent()
    const result = await work()
    if (this.spentMs >= this.totalMs) throw this.spent()
    return result
  }

  /** Lets the event loop run when this call has held it for RUN_LIMIT_MS since it last did. */
  async breathe(): Promise<void> {
    const before = performance.now()
    if (before - this.heldSince < RUN_LIMIT_MS) return
    // a timer, not setImmediate: an immediate queued from a timer callback runs before the next
    // timers phase, so other timers would wait for the whole call
    await new Promise<void>((resolve) => setTimeout(resolve, 0))
    this.heldSince = performance.now()
    this.waitedMs += this.heldSince - before
  }

  private spent(): CheckBudgetError {
    return new CheckBudgetError(`the checks of this call ran past their ${this.totalMs} ms together`, true)
  }
}

/**
 * Runs `fn` under a time limit (the vm watchdog stops any JavaScript, a regex included); past it,
 * CheckBudgetError. For host code that runs patterns it did not compile: typebox's schema validation.
 */
export function runBounded<T>(fn: () => T, timeoutMs: number, what: string): T {
  sandbox.call = fn
  try {
    return runCall.runInContext(sandbox, { timeout: timeoutMs }) as T
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
      throw new CheckBudgetError(`${what} took longer than ${timeoutMs} ms`)
    throw err
  } finally {
    sandbox.call = undefined
  }
}
