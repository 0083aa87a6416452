/**
 * The health check of the reflex layer in this process: the detector (the native addon) must find
 * and redact a known address, as it does for every goal. Throws when it does not.
 *
 * ```ts
 * reflexSelfCheck(detector) // returns, or throws 'the reflex layer did not redact a known address'
 * ```
 */
import type { Detector } from '@ganglion/reflex'

const PROBE = 'health check: mail probe@example.com'
const ADDRESS = 'probe@example.com'

export function reflexSelfCheck(detector: Detector): void {
  const redacted = detector.redact(PROBE).redacted_text
  if (redacted.includes(ADDRESS) || redacted === PROBE) throw new Error('the reflex layer did not redact a known address')
}
