/**
 * The reflex engine port over the native addon. This is the ONE module that imports
 * `bindings/`; everything else takes a `ReflexEngine` from here.
 *
 * ```ts
 * const engine = createEngine({ blockLevel: 'high' })
 * engine.check('mail ada@example.com').piiMatches[0]?.type // 'EMAIL'
 * ```
 */
import { ReflexEngine as NativeEngine, version, type CheckFlags, type CheckResult } from '#bindings'

export type {
  CachedValue,
  CacheTierStats,
  CheckCounters,
  CheckFlags,
  CheckResult,
  EngineOptions,
  InjectionMatch,
  PiiMatch,
  RateLimitDecision,
  RedactOptions,
  RedactResult,
  RoutingHint,
} from '#bindings'

/**
 * The addon's engine, with two shortcuts past napi costs (bench/RESULTS.md), same answers:
 * - `check` and `checkAsync` parse the result the addon writes as JSON: one string and
 *   `JSON.parse` cost less than building the nested objects through napi. Same fields, order and
 *   values as the addon's own object form.
 * - the hot calls pass the flags one by one (the addon's `*Flat` methods): napi reads an object's
 *   properties by name, interning each name on every call.
 */
export class ReflexEngine extends NativeEngine {
  override check(text: string, flags?: CheckFlags | null): CheckResult {
    return JSON.parse(this.checkResultJsonFlat(text, flags?.checkPii, flags?.checkInjection, flags?.useCache)) as CheckResult
  }

  override checkJson(text: string, flags?: CheckFlags | null): string {
    return this.checkJsonFlat(text, flags?.checkPii, flags?.checkInjection, flags?.useCache)
  }

  override cacheKey(text: string, flags?: CheckFlags | null): string {
    return this.cacheKeyFlat(text, flags?.checkPii, flags?.checkInjection, flags?.useCache)
  }

  override checkAsync(text: string, flags?: CheckFlags | null): Promise<CheckResult> {
    return this.checkResultJsonAsync(text, flags).then((json) => JSON.parse(json) as CheckResult)
  }
}

/** Error codes the addon throws as `err.code`. */
export const ENGINE_ERRORS = { invalidOption: 'REFLEX_ERR_INVALID_OPTION' } as const

export type BlockLevel = 'low' | 'medium' | 'high' | 'critical'
export type RedactMode = 'placeholder' | 'mask' | 'redact' | 'remove' | 'hash'

export interface EngineConfig {
  blockLevel?: BlockLevel
  cacheMaxEntries?: number
  cacheMaxBytes?: number
  rateLimitMaxKeys?: number
}

export function createEngine(config: EngineConfig = {}): ReflexEngine {
  return new ReflexEngine(config)
}

/** The addon's crate version, reported by health endpoints. */
export const addonVersion: string = version()
