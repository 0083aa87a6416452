/**
 * The reflex engine port over the native addon. This is the ONE module that imports
 * `bindings/`; everything else takes a `ReflexEngine` from here.
 *
 * ```ts
 * const engine = createEngine({ blockLevel: 'high' })
 * engine.check('mail ada@example.com').piiMatches[0]?.type // 'EMAIL'
 * ```
 */
import { ReflexEngine, version } from '#bindings'

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
export { ReflexEngine }

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
