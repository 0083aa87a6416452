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
 * For the executor's sandbox: `closeDescriptorsOnExec` marks every open descriptor from 3 up
 * close-on-exec, so a program started next gets only what it is handed, and returns how many were
 * unmarked (packages/reflex/src/descriptors.rs); `sandboxSeccompFilters` gives the shell-sandbox
 * seccomp programs (x86_64), one Buffer of `struct sock_filter` each, in the order bubblewrap is
 * given them (`--add-seccomp-fd`): see packages/reflex/src/seccomp.rs.
 */
export { closeDescriptorsOnExec, sandboxSeccompFilters } from '../bindings/index.js'
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
