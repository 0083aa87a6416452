/**
 * One scrub: redacts personal data and secrets in strings through the reflex detector, withholds
 * tool and retrieval strings that carry a prompt injection at or above the block level, applies
 * the output policy, and counts what it did. Keys and structure are kept, so the result is the
 * same JSON shape as what came in.
 *
 * ```ts
 * const scrubber = new Scrubber({ detector, mode: 'placeholder', blockLevel: 'high' })
 * scrubber.value({ s1: { hits: [{ text: 'mail ada@example.com' }] } })
 * // { s1: { hits: [{ text: 'mail [EMAIL_1]' }] } }; scrubber.redactions === 1
 * ```
 *
 * Placeholders are numbered across the whole scrub, not per string: the same address is
 * `[EMAIL_1]` wherever it appears and a second one is `[EMAIL_2]`, so a reader can still tell
 * "the same person" from "someone else" (the detector numbers each call from 1).
 */
import type { BlockLevel, Detector, RedactOptions } from '@ganglion/reflex'
import { atLeast, type Severity, screenText, unique } from './injection-screen.js'
import { applyPolicy, type CompiledPolicy } from './output-policy.js'

export type ScrubMode = Extract<NonNullable<RedactOptions['mode']>, 'placeholder' | 'mask' | 'redact'>

export interface ScrubberOptions {
  detector: Detector
  mode: ScrubMode
  blockLevel: BlockLevel
  policy?: CompiledPolicy
}

export interface Withheld {
  /** Where the string was (keys only, themselves redacted). */
  path: string
  severity: Severity
  families: string[]
}

/** Numbers this long may be card or phone numbers stored as JSON numbers; shorter ones cannot be. */
export const MIN_DIGITS_TO_SCAN = 7

export class Scrubber {
  redactions = 0
  readonly withheld: Withheld[] = []
  blockedTerms = 0
  truncated = 0
  private readonly types = new Set<string>()
  private readonly placeholders = new Map<string, string>()
  private readonly perType = new Map<string, number>()

  constructor(private readonly opts: ScrubberOptions) {}

  get piiTypes(): string[] {
    return unique(this.types)
  }

  /** A text the caller gave: redacted and held to the policy, not screened for injection. */
  text(text: string): string {
    return this.policy(this.redact(text))
  }

  /** Dependency outputs: every string screened, redacted and held to the policy. */
  value(value: unknown, path = ''): unknown {
    if (typeof value === 'string') return this.toolString(value, path)
    if (typeof value === 'number' && Number.isInteger(value) && String(Math.abs(value)).length >= MIN_DIGITS_TO_SCAN) {
      const text = String(value)
      const redacted = this.redact(text)
      return redacted === text ? value : redacted
    }
    if (Array.isArray(value)) return value.map((item, i) => this.value(item, join(path, String(i))))
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.value(v, join(path, k))]))
    return value
  }

  private toolString(text: string, path: string): string {
    const screened = screenText(this.opts.detector, text)
    if (screened.severity !== 'none' && atLeast(screened.severity, this.opts.blockLevel)) {
      this.withheld.push({
        path: this.opts.detector.redact(path).redacted_text,
        severity: screened.severity,
        families: screened.families,
      })
      return `[withheld: possible prompt injection (${screened.families.join(', ') || 'unknown'}, ${screened.severity})]`
    }
    return this.policy(this.redact(text))
  }

  private redact(text: string): string {
    const result = this.opts.detector.redact(text, { mode: this.opts.mode })
    if (result.pii_matches.length === 0) return text
    this.redactions += result.pii_matches.length
    for (const m of result.pii_matches) this.types.add(m.type)
    if (this.opts.mode !== 'placeholder') return result.redacted_text
    // rebuilt from the offsets (UTF-16, non-overlapping) so numbering spans the whole scrub
    let out = ''
    let at = 0
    for (const m of [...result.pii_matches].sort((a, b) => a.start - b.start)) {
      out += text.slice(at, m.start) + this.placeholder(m.type, m.matched_text)
      at = m.end
    }
    return out + text.slice(at)
  }

  private placeholder(type: string, matched: string): string {
    const key = `${type}\u0000${matched}`
    let name = this.placeholders.get(key)
    if (name === undefined) {
      const n = (this.perType.get(type) ?? 0) + 1
      this.perType.set(type, n)
      name = `[${type}_${n}]`
      this.placeholders.set(key, name)
    }
    return name
  }

  private policy(text: string): string {
    if (!this.opts.policy) return text
    const applied = applyPolicy(this.opts.policy, text)
    this.blockedTerms += applied.blocked
    if (applied.truncated) this.truncated++
    return applied.text
  }
}

function join(at: string, key: string): string {
  return at === '' ? key : `${at}.${key}`
}
