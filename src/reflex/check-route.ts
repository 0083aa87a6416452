/**
 * `POST /api/v1/check` (and its drop-in `/process`): rate limit, personal data, injection, routing
 * and the cache lookup, through the detector, cache and limiter ports like any other caller.
 *
 * One fast path: when the composition root made a `CheckEndpoint` (the limiter and the cache
 * tier are in this process), the usual body (`text` and `user_id`, any of the boolean flags) is
 * answered from its bytes in one native call, the same token, check, lookup and reply as below at
 * about a third of the cost (docs/performance.md). Any other body, and every body when Redis is
 * configured, goes the usual way.
 */
import { performance } from 'node:perf_hooks'
import type { CheckResult } from '@ganglion/reflex'
import type { Ctx, Reply } from '../http/app.js'
import { parseJsonBody } from '../http/body.js'
import { admit, decide } from '../http/rate-limit.js'
import { compileSchema } from '../http/validate.js'
import type { CacheEntry } from '../stores/cache-store.js'
import type { ReflexDeps } from './deps.js'
import { CheckRequest } from './schemas.js'

const parseCheck = compileSchema(CheckRequest)

/** What a check needs: the `/api/v1/check` request (variants map their own bodies onto it). */
export type CheckInput = CheckRequest

/** The `/api/v1/check` reply body. */
export type CheckReply = ReturnType<typeof replyBody>

/** The check of `input` through the ports: its reply body and `RateLimit-*` headers. */
export async function runCheck(
  deps: ReflexDeps,
  ctx: Ctx,
  input: CheckInput,
  started: number,
): Promise<{ headers: Record<string, string>; body: CheckReply }> {
  const headers = await admit(deps.limiter, deps.limits, () => ctx.ip, input.user_id)
  const result = deps.detector.check(input.text, { checkPii: input.check_pii ?? true, checkInjection: input.check_injection ?? true })
  const entry = input.use_cache === false ? undefined : await deps.cache.get(result.cache_key)
  return { headers, body: replyBody(ctx.requestId, result, entry, started) }
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
    const answer = endpoint?.answer(ctx.body, ctx.requestId)
    if (answer?.kind === 'answered') {
      const { head, body, reused } = answer
      // No head for a request id the endpoint would not put in one: the headers the usual way.
      if (head === undefined) return { status: 200, headers: decide(answer.decision, deps.limits, true), raw: body, rawReused: reused }
      return { status: 200, head, raw: body, rawReused: reused }
    }
    if (answer?.kind === 'refused') decide(answer.decision, deps.limits, true) // throws the 429
    // Parsed before anything is awaited: the bytes may be uWS's memory.
    const input = parseCheck(parseJsonBody(ctx.body))
    return runCheck(deps, ctx, input, started).then(({ headers, body }) => ({ status: 200, headers, body }))
  }
}
