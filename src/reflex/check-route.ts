/**
 * `POST /api/v1/check` (and its drop-in `/process`): personal data, injection, routing and the
 * caller's stored answer to the text, through the detector and the cache port like any other
 * caller. The HTTP layer has already taken the request's rate-limit token.
 *
 * One fast path: when the composition root made a `CheckEndpoint` (the cache tier is in this
 * process alone), the usual body (`text`, and optionally `user_id`, the boolean flags and the
 * thresholds) is
 * answered from its bytes in one native call: the same check, lookup and reply as below at about
 * a third of the cost (docs/performance.md). Any other body, and every body when Redis is
 * configured, goes the usual way.
 */
import { performance } from 'node:perf_hooks'
import type { CheckResult } from '@ganglion/reflex'
import type { Ctx, Reply } from '../http/app.js'
import { parseJsonBody } from '../http/body.js'
import { compileSchema } from '../http/validate.js'
import type { CacheEntry } from '../stores/cache-store.js'
import type { ReflexDeps } from './deps.js'
import { CheckRequest } from './schemas.js'

const parseCheck = compileSchema(CheckRequest)

/** What a check needs: the `/api/v1/check` request (variants map their own bodies onto it). */
export type CheckInput = CheckRequest

/** The `/api/v1/check` reply body. */
export type CheckReply = ReturnType<typeof replyBody>

/**
 * The check of `input` for the caller's tenant, through the ports: the caller's stored answer to
 * the exact text (`AnswerKeys`) is the hit; another tenant's, or an answer to a differently worded
 * text, never is.
 */
export async function runCheck(deps: ReflexDeps, ctx: Ctx, input: CheckInput, started: number): Promise<CheckReply> {
  const options = { checkPii: input.check_pii ?? true, checkInjection: input.check_injection ?? true }
  // The thresholds judge this check alone; the stored answer to the text is the same under any.
  const judged = {
    ...options,
    ...(input.injection_threshold !== undefined && { injectionThreshold: input.injection_threshold }),
    ...(input.pii_threshold !== undefined && { piiThreshold: input.pii_threshold }),
  }
  const result = deps.detector.check(input.text, judged)
  const entry = input.use_cache === false ? undefined : await deps.cache.get(deps.answerKeys.key(ctx.principal.tenant, input.text, options))
  return replyBody(ctx.requestId, result, entry, started)
}

/** The reply's fields in the order the native endpoint writes them. */
function replyBody(requestId: string, r: CheckResult, entry: CacheEntry | undefined, started: number) {
  const hit = entry !== undefined
  return {
    request_id: requestId,
    status: r.status,
    allowed: r.allowed,
    cache_hit: hit,
    cache_key: r.cache_key,
    ...(hit && { cached_value: JSON.parse(entry.valueJson) as unknown }),
    pii_detected: r.pii_detected,
    pii_matches: r.pii_matches,
    redacted_text: r.redacted_text,
    injection_detected: r.injection_detected,
    injection_score: r.injection_score,
    severity: r.severity,
    injection_matches: r.injection_matches,
    routing: hit && r.routing.route === 'orchestrator' ? { ...r.routing, route: 'cache' as const } : r.routing,
    processing_time_ms: Number((performance.now() - started).toFixed(3)),
  }
}

export function checkRoute(deps: ReflexDeps) {
  const { endpoint } = deps
  return (ctx: Ctx<Buffer>): Reply | Promise<Reply> => {
    const started = performance.now()
    const who = { tenant: ctx.principal.tenant, ...(ctx.rateLimit && { rateLimit: ctx.rateLimit }) }
    const answer = endpoint?.answer(ctx.body, ctx.requestId, who)
    if (answer !== undefined) {
      const { head, body, reused } = answer
      // No head for a request id the endpoint would not put in one: the headers the usual way.
      return head === undefined ? { status: 200, raw: body, rawReused: reused } : { status: 200, head, raw: body, rawReused: reused }
    }
    // Parsed before anything is awaited: the bytes may be uWS's memory. The text is screened,
    // never stored, so a NUL or a lone surrogate in it is taken as sent.
    const input = parseCheck(parseJsonBody(ctx.body, 'any'))
    return runCheck(deps, ctx, input, started).then((body) => ({ status: 200, body }))
  }
}
