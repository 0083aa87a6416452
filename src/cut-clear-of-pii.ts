/**
 * Where to cut a long text so the cut splits none of its personal data. Text is cut before it is
 * redacted when redacting all of it would cost too much (about 0.1 s a megabyte): the re-plan
 * reason (orchestrator/runner/replan-reason.ts) and a long log line (log-bound.ts). Half a card
 * number is no card number to the detector, so a cut through one would let its half out unredacted.
 *
 * ```ts
 * clearOfPii(piiIn(detector), 'card 4111 1111 1111 1111', 12, 'back') // 5: before the card, not inside it
 * ```
 */

import type { Detector } from '@ganglion/reflex'

/** One item of personal data: `text.slice(start, end)`, UTF-16 offsets. */
export interface PiiSpan {
  start: number
  end: number
}

/** Where personal data lies in a text (the detector's `pii_matches`). */
export type PiiFinder = (text: string) => readonly PiiSpan[]

/**
 * How far either side of a cut the finder looks for personal data the cut would split. The
 * longest items the detector finds are PEM private-key blocks (about 3,300 characters for a
 * 4096-bit RSA key); an e-mail address is at most 320, a card number or a phone a few dozen.
 */
export const PROBE_CHARS = 8_192

/** The detector as `clearOfPii` asks it: where personal data lies in a text. */
export function piiIn(detector: Pick<Detector, 'redact'>): PiiFinder {
  return (text) => detector.redact(text, { mode: 'placeholder' }).pii_matches
}

/** Marks where `chars` characters of a text were cut (a log line's string, a re-plan reason). */
export function cutNote(chars: number): string {
  return `[…${chars} characters cut…]`
}

/**
 * `at`, or the nearest point before it ('back') or after it ('forward') where a cut splits none of
 * the personal data `find` sees around `at`. The probe sees both sides of `at`, so it finds an
 * item the cut would split (items longer than PROBE_CHARS aside).
 */
export function clearOfPii(find: PiiFinder, text: string, at: number, way: 'back' | 'forward'): number {
  let from = Math.max(0, at - PROBE_CHARS)
  if (isLowSurrogate(text.charCodeAt(from))) from += 1
  const around = text.slice(from, wholeEnd(text, at + PROBE_CHARS))
  const split = find(around).find((m) => from + m.start < at && at < from + m.end)
  if (split === undefined) return at
  return way === 'back' ? from + split.start : from + split.end
}

/** `at`, or one less when `at` would split a surrogate pair: an end for `text.slice(0, end)`. */
export function wholeEnd(text: string, at: number): number {
  return at > 0 && at < text.length && isHighSurrogate(text.charCodeAt(at - 1)) ? at - 1 : at
}

export const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff
export const isLowSurrogate = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff
