/**
 * What a tool throws when the step's signal aborts: the signal's own reason when it is an error
 * (the host put it there: cancel, task timeout, lost lease), else STEP_ABORTED.
 *
 * ```ts
 * if (signal.aborted) throw abortError(signal)
 * ```
 */
import { ArmError } from '../contract.js'

export function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new ArmError('STEP_ABORTED', 'the step was aborted')
}
