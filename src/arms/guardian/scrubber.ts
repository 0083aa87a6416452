/**
 * One scrub: redacts personal data and secrets in strings through the reflex detector, withholds
 * tool and retrieval strings that carry a prompt injection at or above the block level (or, given
 * an injection threshold, whose injection score reaches it), applies
 * the output policy, and counts what it did. Keys and structure are kept, so the result is the
 * same JSON shape as what came in.
 *
 * ```ts
 * const scrubber = new Scrubber({ detector, mode: 'placeholder', blockLevel: 'high', budget: new CheckBudget(2_000) })
 * await scrubber.value({ s1: { hits: [{ text: 'mail ada@example.com' }] } })
 * // { s1: { hits: [{ text: 'mail [EMAIL_1]' }] } }; scrubber.redactions === 1
 * ```
 *
 * Placeholders are numbered across the whole scrub, not per string: the same address is
 * `[EMAIL_1]` wherever it appears and a second one is `[EMAIL_2]`, so a reader can still tell
 * "the same person" from "someone else" (the detector numbers each call from 1).
 *
 * All of it runs within the call's CheckBudget (../check-budget.ts): the detector's scans run on
 * libuv's pool and are counted, the output policy runs bounded, and between strings the event loop gets its turn.
 */
import type { BlockLevel, Detector, RedactOptions } from '@ganglion/reflex'
import { type CheckBudget, RUN_LIMIT_MS } from '../check-budget.js'
import { atLeast, type Screened, type Severity, screenText, unique } from './injection-screen.js'
import { applyPolicy, type CompiledPolicy } from './output-policy.js'

export type ScrubMode = Extract<NonNullable<RedactOptions['mode']>, 'placeholder' | 'mask' | 'redact'>

export interface ScrubberOptions {
  detector: Detector
  mode: ScrubMode
  blockLevel: BlockLevel
  /** When given, a string is withheld when its injection score reaches it, instead of by `blockLevel`. */
  injectionThreshold?: number
  policy?: CompiledPolicy
  budget: CheckBudget
  /** Matched values left in place: the numbers the task computed itself (computed-values.ts). */
  keep?: ReadonlySet<string>
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
  async text(text: string): Promise<string> {
    return this.policy(await this.redact(text))
  }

  /** Dependency outputs: every string screened, redacted and held to the policy. */
  async value(value: unknown, path = ''): Promise<unknown> {
    if (typeof value === 'string') {
      await this.opts.budget.breathe()
      return this.toolString(value, path)
    }
    if (typeof value === 'number' && Number.isInteger(value) && String(Math.abs(value)).length >= MIN_DIGITS_TO_SCAN) {
      const text = String(value)
      const redacted = await this.redact(text)
      return redacted === text ? value : redacted
    }
    if (Array.isArray(value)) {
      const out: unknown[] = []
      for (const [i, item] of value.entries()) out.push(await this.value(item, join(path, String(i))))
      return out
    }
    if (value !== null && typeof value === 'object') {
      // entries, not assignment: a `__proto__` key stays a key
      const entries: Array<[string, unknown]> = []
      for (const [k, v] of Object.entries(value)) entries.push([k, await this.value(v, join(path, k))])
      return Object.fromEntries(entries)
    }
    return value
  }

  private async toolString(text: string, path: string): Promise<string> {
    const screened = await this.opts.budget.countAsync(() => screenText(this.opts.detector, text, false, this.opts.injectionThreshold))
    if (this.withholds(screened)) {
      this.withheld.push({
        path: this.opts.detector.redact(path).redacted_text,
        severity: screened.severity,
        families: screened.families,
      })
      return `[withheld: possible prompt injection (${screened.families.join(', ') || 'unknown'}, ${screened.severity})]`
    }
    return this.policy(await this.redact(text))
  }

  /** Given a threshold, the detector judged the string by it; else the arm's own block level decides. */
  private withholds(screened: Screened): boolean {
    if (this.opts.injectionThreshold !== undefined) return screened.blocked
    return screened.severity !== 'none' && atLeast(screened.severity, this.opts.blockLevel)
  }

  private async redact(text: string): Promise<string> {
    const result = await this.opts.budget.countAsync(() => this.opts.detector.redactAsync(text, { mode: this.opts.mode }))
    const keep = this.opts.keep
    const matches = keep ? result.pii_matches.filter((m) => !keep.has(m.matched_text)) : result.pii_matches
    if (matches.length === 0) return text
    this.redactions += matches.length
    for (const m of matches) this.types.add(m.type)
    if (this.opts.mode !== 'placeholder' && matches.length === result.pii_matches.length) return result.redacted_text
    // rebuilt from the offsets (UTF-16, non-overlapping) so numbering spans the whole scrub
    let out = ''
    let at = 0
    for (const m of [...matches].sort((a, b) => a.start - b.start)) {
      out += text.slice(at, m.start) + this.replacement(m.type, m.matched_text)
      at = m.end
    }
    return out + text.slice(at)
  }

  private replacement(type: string, matched: string): string {
    if (this.opts.mode === 'redact') return '[REDACTED]'
    if (this.opts.mode === 'mask') return mask(matched, MASK_KEEP_LAST)
    return this.placeholder(type, matched)
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
    const policy = this.opts.policy
    const applied = this.opts.budget.run(() => applyPolicy(policy, text), RUN_LIMIT_MS, 'the output policy on one string')
    this.blockedTerms += applied.blocked
    if (applied.truncated) this.truncated++
    return applied.text
  }
}

/** The detector's mask (its default `keepLast`): every letter and digit but the last few becomes `*`. */
const MASK_KEEP_LAST = 4

function mask(value: string, keepLast: number): string {
  const chars = [...value]
  let left = keepLast
  for (let i = chars.length - 1; i >= 0; i--) {
    if (!/[\p{L}\p{N}]/u.test(chars[i] ?? '')) continue
    if (left > 0) left--
    else chars[i] = '*'
  }
  return chars.join('')
}

function join(at: string, key: string): string {
  return at === '' ? key : `${at}.${key}`
}
