/**
 * A promise that settles with `work`, or rejects with the signal's reason as soon as `signal`
 * aborts, whichever comes first: for work that may not honour the signal itself (an arm, a
 * remote call). The work's own later outcome is then ignored, never an unhandled rejection.
 *
 * ```ts
 * const output = await untilAborted(arm.execute(request, ctx), stop.signal)
 * ```
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => {})
    return Promise.reject(signal.reason)
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}
