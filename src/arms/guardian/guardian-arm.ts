/**
 * The guardian arm (docs/arms/guardian.md): personal data and secrets out of what the task returns,
 * prompt injection out of what tools and retrieval brought in (indirect injection), and the task's
 * output policy held. All detection is the reflex detector's (`@ganglion/reflex`).
 *
 * ```ts
 * const guardian = createGuardianArm({ detector: new Detector(), blockLevel: 'high' })
 * await guardian.execute({ …, tool: 'scrub', input: { text: 'mail ada@example.com' } }, ctx)
 * // → { text: 'mail [EMAIL_1]', redactions: 1, pii_types: ['EMAIL'] }
 * await guardian.execute({ …, tool: 'scrub', input: {}, context: { dep_outputs: { s1: { hits: […] } }, … } }, ctx)
 * // → { scrubbed: { s1: { hits: […] } }, redactions: 2, pii_types: ['EMAIL', 'PHONE'], withheld: 1 }
 * await guardian.execute({ …, tool: 'screen', input: { text } }, ctx)
 * // → { injection_detected: true, severity: 'high', families: ['instruction_override'], pii_detected: false, pii_types: [] }
 * ```
 *
 * Events (`ctx.emit`) carry counts, types and families, never matched text: `guardrail.pii_redacted`
 * `{ count, types }`, `guardrail.injection` `{ severity, families, withheld, path? }` (one per
 * withheld string, at most `MAX_INJECTION_EVENTS` a call), `guardrail.policy`
 * `{ blocked_terms, truncated }`.
 */

import { version as addonVersion, type BlockLevel, type Detector } from '@ganglion/reflex'
import Type from 'typebox'
import { CheckBudget, CheckBudgetError, DEFAULT_CHECK_BUDGET_MS } from '../check-budget.js'
import { ARM_TOOLS, type Arm, type ArmContext, ArmError, checkedInput, type ExecuteRequest } from '../contract.js'
import { BLOCK_LEVELS, maxSeverity, type Severity, screenText, unique } from './injection-screen.js'
import { parseOutputPolicy } from './output-policy.js'
import { MIN_DIGITS_TO_SCAN, Scrubber, type ScrubberOptions, type ScrubMode } from './scrubber.js'

export interface GuardianDeps {
  detector: Detector
  /** Injection severity at which a tool or retrieval string is withheld; default the detector's own. */
  blockLevel?: BlockLevel
  /**
   * Injection score (0..1) at which a tool or retrieval string is withheld, instead of by the block
   * level; default the detector's own (REFLEX_INJECTION_THRESHOLD), none when it has none.
   */
  injectionThreshold?: number
  /** Milliseconds the scans and the output policy of one call may take together (CHECK_BUDGET_MS). */
  checkBudgetMs?: number
}

/** Beyond this many withheld strings in one call, one more event says how many were not reported. */
export const MAX_INJECTION_EVENTS = 50

const MAX_TEXT_CHARS = 1_000_000

export const ScrubInput = Type.Object(
  {
    /** The text to redact; without it, every dependency output is scrubbed. */
    text: Type.Optional(Type.String({ maxLength: MAX_TEXT_CHARS })),
    mode: Type.Optional(Type.Enum(['placeholder', 'mask', 'redact'])),
    /**
     * Numbers the task computed itself, left in place where found: the runner sets it
     * (src/orchestrator/runner/computed-values.ts), replacing whatever a plan wrote here.
     */
    keep: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 200 })),
  },
  { additionalProperties: false },
)
export const ScreenInput = Type.Object({ text: Type.Optional(Type.String({ maxLength: MAX_TEXT_CHARS })) }, { additionalProperties: false })

export const ScrubTextOutput = Type.Object({ text: Type.String(), redactions: Type.Integer(), pii_types: Type.Array(Type.String()) })
export const ScrubDepsOutput = Type.Object({
  scrubbed: Type.Unknown(),
  redactions: Type.Integer(),
  pii_types: Type.Array(Type.String()),
  withheld: Type.Integer(),
})
export const ScreenOutput = Type.Object({
  injection_detected: Type.Boolean(),
  severity: Type.Enum(['none', 'low', 'medium', 'high', 'critical']),
  families: Type.Array(Type.String()),
  pii_detected: Type.Boolean(),
  pii_types: Type.Array(Type.String()),
})
export type ScrubTextOutput = Type.Static<typeof ScrubTextOutput>
export type ScrubDepsOutput = Type.Static<typeof ScrubDepsOutput>
export type ScreenOutput = Type.Static<typeof ScreenOutput>

export function createGuardianArm(deps: GuardianDeps): Arm {
  const blockLevel = deps.blockLevel ?? (deps.detector.blockLevel as BlockLevel)
  if (!BLOCK_LEVELS.includes(blockLevel)) throw new RangeError(`blockLevel must be one of ${BLOCK_LEVELS.join(', ')}`)
  const injectionThreshold = deps.injectionThreshold ?? deps.detector.injectionThreshold
  if (injectionThreshold !== undefined && !(injectionThreshold >= 0 && injectionThreshold <= 1))
    throw new RangeError('injectionThreshold must be a number from 0 to 1')
  const judging = { blockLevel, ...(injectionThreshold !== undefined && { injectionThreshold }) }
  return {
    name: 'guardian',
    capability: {
      arm_id: 'guardian',
      name: 'Guardian',
      description:
        'Scrubs personal data and secrets from text or from the outputs of the steps it depends on (structure kept), withholds tool and retrieval output that carries a prompt injection, enforces constraints.output_policy (blocked_terms, max_output_chars), and screens text without changing it.',
      capabilities: [...ARM_TOOLS.guardian],
      input_schema: {
        anyOf: [
          { title: 'scrub', ...ScrubInput },
          { title: 'screen', ...ScreenInput },
        ],
      },
      output_schema: { anyOf: [ScrubTextOutput, ScrubDepsOutput, ScreenOutput] },
      cost_tier: 'low',
    },
    execute: async (request, ctx) => {
      const budget = new CheckBudget(deps.checkBudgetMs ?? DEFAULT_CHECK_BUDGET_MS)
      try {
        if (request.tool === 'scrub') return await scrub(deps.detector, judging, request, ctx, budget)
        if (request.tool === 'screen') return await screen(deps.detector, request, ctx, budget)
      } catch (err) {
        if (err instanceof CheckBudgetError) throw new ArmError('CHECK_BUDGET_EXCEEDED', `the guardian's ${request.tool}: ${err.message}`)
        throw err
      }
      throw new ArmError('TOOL_UNKNOWN', `the guardian has no tool '${request.tool}' (scrub, screen)`)
    },
    health: async () => {
      try {
        const probe = deps.detector.check('health probe: ada@example.com')
        const ok = probe.pii_matches.length === 1
        const engine = {
          ok,
          addon: addonVersion,
          block_level: blockLevel,
          ...(injectionThreshold !== undefined && { injection_threshold: injectionThreshold }),
        }
        return { status: ok ? 'healthy' : 'degraded', checks: { engine } }
      } catch (err) {
        return { status: 'unhealthy', checks: { engine: { ok: false, error: (err as { code?: string }).code ?? 'ENGINE_ERROR' } } }
      }
    },
  }
}

async function scrub(
  detector: Detector,
  judging: Pick<ScrubberOptions, 'blockLevel' | 'injectionThreshold'>,
  request: ExecuteRequest,
  ctx: ArmContext,
  budget: CheckBudget,
): Promise<ScrubTextOutput | ScrubDepsOutput> {
  const input = checkedInput(ScrubInput, request.input, 'input')
  const policy = parseOutputPolicy(request.context.constraints)
  const mode = (input.mode ?? 'placeholder') as ScrubMode
  const keep = new Set(input.keep ?? [])
  const scrubber = new Scrubber({ detector, mode, ...judging, budget, keep, ...(policy && { policy }) })
  const output: ScrubTextOutput | ScrubDepsOutput =
    input.text !== undefined
      ? { text: await scrubber.text(input.text), redactions: 0, pii_types: [] }
      : { scrubbed: await scrubber.value(request.context.dep_outputs), redactions: 0, pii_types: [], withheld: scrubber.withheld.length }
  output.redactions = scrubber.redactions
  output.pii_types = scrubber.piiTypes

  if (scrubber.redactions > 0) ctx.emit({ type: 'guardrail.pii_redacted', data: { count: scrubber.redactions, types: scrubber.piiTypes } })
  for (const w of scrubber.withheld.slice(0, MAX_INJECTION_EVENTS))
    ctx.emit({ type: 'guardrail.injection', data: { severity: w.severity, families: w.families, withheld: true, path: w.path } })
  if (scrubber.withheld.length > MAX_INJECTION_EVENTS) {
    const rest = scrubber.withheld.slice(MAX_INJECTION_EVENTS)
    const severity = rest.reduce<Severity>((s, w) => maxSeverity(s, w.severity), 'none')
    ctx.emit({
      type: 'guardrail.injection',
      data: { severity, families: unique(rest.flatMap((w) => w.families)), withheld: true, more: rest.length },
    })
  }
  if (scrubber.blockedTerms > 0 || scrubber.truncated > 0)
    ctx.emit({ type: 'guardrail.policy', data: { blocked_terms: scrubber.blockedTerms, truncated: scrubber.truncated } })
  return output
}

async function screen(detector: Detector, request: ExecuteRequest, ctx: ArmContext, budget: CheckBudget): Promise<ScreenOutput> {
  const input = checkedInput(ScreenInput, request.input, 'input')
  const texts = input.text !== undefined ? [input.text] : strings(request.context.dep_outputs)
  let severity: Severity = 'none'
  const families = new Set<string>()
  const piiTypes = new Set<string>()
  for (const text of texts) {
    await budget.breathe()
    const found = await budget.countAsync(() => screenText(detector, text, true))
    severity = maxSeverity(severity, found.severity)
    for (const f of found.families) families.add(f)
    for (const p of found.piiTypes) piiTypes.add(p)
  }
  const output: ScreenOutput = {
    injection_detected: severity !== 'none',
    severity,
    families: unique(families),
    pii_detected: piiTypes.size > 0,
    pii_types: unique(piiTypes),
  }
  if (output.injection_detected) ctx.emit({ type: 'guardrail.injection', data: { severity, families: output.families, withheld: false } })
  return output
}

/** Every string leaf (and the long integers the scrub also reads). */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (typeof value === 'number' && Number.isInteger(value) && String(Math.abs(value)).length >= MIN_DIGITS_TO_SCAN) return [String(value)]
  if (Array.isArray(value)) return value.flatMap(strings)
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(strings)
  return []
}
