/**
 * The re-plan reason (a failed validation's message) where it leaves the runner: to the planner
 * arm as `previous_failure`, and into the re-plan's log line. A judge's message quotes the output
 * it refused (`is "mail ada@example.com"…`), so the reason can hold personal data, and a
 * registered arm's can be megabytes long. Both places get it with personal data replaced by
 * placeholders, as the goal is (`detector.redact`, placeholder mode), and bounded.
 *
 * ```ts
 * failureForPlanner(detector, '1 of 1 checks failed: "says 42" (deterministic): is "mail ada@example.com"')
 * // '1 of 1 checks failed: "says 42" (deterministic): is "mail [EMAIL_1]"'
 * reasonForLog(detector, reason) // { reason_chars: 1048576, reason_head: '1 of 1 checks failed: …' }
 * ```
 *
 * The stored `task.replanned` event keeps the whole reason, as the failed step's own error (and
 * its `step.failed` event) already does: stored records keep the client's own data
 * (task-service.ts); what leaves for an arm, a model or the log does not.
 */

import type { Detector } from '@ganglion/reflex'
import { MAX_PREVIOUS_FAILURE_CHARS } from '../../arms/planner/planner-input.js'
import { clearOfPii, cutNote, isLowSurrogate, piiIn, wholeEnd } from '../../cut-clear-of-pii.js'
/** What the log keeps of a reason: enough to recognise it, not a quoted output. */
export const LOG_HEAD_CHARS = 200

/**
 * The reason as the planner arm takes it: personal data replaced by placeholders, at most
 * MAX_PREVIOUS_FAILURE_CHARS (`boundedFailure`'s head, marker and tail when it is longer).
 */
export function failureForPlanner(detector: Detector, reason: string): string {
  // A placeholder can be longer than what it replaces (`a@b.io` → `[EMAIL_1]`): cut after redacting.
  if (reason.length <= MAX_PREVIOUS_FAILURE_CHARS) return boundedFailure(placeholders(detector, reason))
  // Redacting it all would hold the event loop for text that is then cut (about 0.1 s a megabyte
  // of dense personal data): cut first, where no personal data is split, and redact what is kept.
  const { head, tail } = cutPoints(reason)
  const h = clearOfPii(piiIn(detector), reason, head, 'back')
  const t = clearOfPii(piiIn(detector), reason, tail, 'forward')
  // The marker's count is digits the detector takes for nothing (a card needs 12 or more). When
  // placeholders make the kept text overflow, boundedFailure cuts again, with a second marker.
  return boundedFailure(placeholders(detector, `${reason.slice(0, h)}${cutMarker(t - h)}${reason.slice(t)}`))
}

/**
 * The reason as the re-plan's log line carries it: its length and a redacted head of at most
 * LOG_HEAD_CHARS (then `…`). The logger bounds every line itself (log-bound.ts: 4,096 characters
 * a string, cut clear of personal data), but a re-plan is routine: its line names the reason, it
 * does not quote 4 KiB of an output. The head is cut clear of personal data and redacted here, so
 * it holds none even through a logger without a redactor; the sink redacts every line again.
 */
export function reasonForLog(detector: Detector, reason: string): { reason_chars: number; reason_head: string } {
  const end =
    reason.length <= LOG_HEAD_CHARS ? reason.length : clearOfPii(piiIn(detector), reason, wholeEnd(reason, LOG_HEAD_CHARS), 'back')
  const head = placeholders(detector, reason.slice(0, end))
  const shown = head.length > LOG_HEAD_CHARS ? head.slice(0, wholeEnd(head, LOG_HEAD_CHARS)) : head
  return { reason_chars: reason.length, reason_head: shown.length < head.length || end < reason.length ? `${shown}…` : shown }
}

/**
 * The re-plan reason as the planner arm takes it: at most MAX_PREVIOUS_FAILURE_CHARS UTF-16 units,
 * so at most as many code points (the schema's measure). A longer one keeps its first three
 * quarters, where a judge says how many checks failed and names the first reasons, and its last
 * quarter, where the last reason ends, around a marker saying how much was cut: the model needs
 * the gist of why, not every quoted line.
 */
export function boundedFailure(reason: string): string {
  if (reason.length <= MAX_PREVIOUS_FAILURE_CHARS) return reason
  const { head, tail } = cutPoints(reason)
  return `${reason.slice(0, head)}${cutMarker(tail - head)}${reason.slice(tail)}`
}

/** Where `boundedFailure` cuts a reason longer than the bound: `[head, tail)` goes. */
function cutPoints(reason: string): { head: number; tail: number } {
  // Room left by a marker sized for the largest count it could show, so the result always fits.
  const room = MAX_PREVIOUS_FAILURE_CHARS - cutMarker(reason.length).length
  const head = wholeEnd(reason, Math.floor((room * 3) / 4))
  let tail = reason.length - (room - Math.floor((room * 3) / 4))
  // A surrogate pair split in two leaves a lone half, which is not text: cut around it instead.
  if (isLowSurrogate(reason.charCodeAt(tail))) tail += 1
  return { head, tail }
}

function cutMarker(chars: number): string {
  return ` ${cutNote(chars)} `
}

function placeholders(detector: Detector, text: string): string {
  return detector.redact(text).redacted_text
}
