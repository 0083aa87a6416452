/**
 * `@ganglion/reflex`: screens text in microseconds in a native addon. A `Detector` finds personal
 * data and prompt injection and gives routing hints and a cache key; a `CacheTier` and a
 * `RateLimiter` are the in-process cache and token buckets beside it; a `CheckEndpoint` runs a
 * whole check request against the three in one call. A `TermMatcher` (Aho-Corasick) and a
 * `LinearRegex` (the Rust `regex` engine) match client text in time linear in the text.
 *
 * ```ts
 * import { Detector } from '@ganglion/reflex'
 * const detector = new Detector()
 * const result = detector.check(prompt)
 * if (!result.allowed) throw new Error(`blocked: ${result.injection_matches[0]?.type}`)
 * forward(result.redacted_text)
 * ```
 */
import { version as nativeVersion } from '../bindings/index.js'

/**
 * The executor's shell-sandbox seccomp programs (x86_64), one Buffer of `struct sock_filter` each,
 * in the order bubblewrap is given them (`--add-seccomp-fd`): see packages/reflex/src/seccomp.rs.
 */
export { sandboxSeccompFilters } from '../bindings/index.js'
export { AnswerKeys } from './answer-keys.js'
export { CacheTier } from './cache-tier.js'
export { type AnswerFor, CheckEndpoint, type CheckEndpointOptions, type EndpointAnswer } from './check-endpoint.js'
export { Detector } from './detector.js'
export { REFLEX_ERRORS, ReflexError, type ReflexErrorCode } from './errors.js'
export { type LinearExecArray, LinearRegex } from './linear-regex.js'
export { RateLimiter } from './rate-limiter.js'
export { type TermMatch, TermMatcher } from './term-matcher.js'
export type * from './types.js'

/** The addon's version. */
export const version: string = nativeVersion()
