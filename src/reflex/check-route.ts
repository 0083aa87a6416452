/**
 * `POST /api/v1/check` (and its drop-in `/process`): cache lookup, personal data, injection,
 * routing. The hot route: the body comes back from the addon as a JSON string and only the
 * request id and the timing are spliced around it.
 */
import { performance } from 'node:perf_hooks'
import type { Ctx, Reply } from '../http/app.js'
import { compileSchema } from '../http/validate.js'
import { admit, admitSync } from '../http/rate-limit.js'
import type { CheckFlags } from './engine.js'
import type { ReflexDeps } from './deps.js'
import { CheckRequest } from './schemas.js'

const parseCheck = compileSchema(CheckRequest)

/** What a check needs: the `/api/v1/check` request (variants map their own bodies onto it). */
export type CheckInput = CheckRequest

/**
 * The check's reply for `input`: the addon's JSON body with the request id and timing spliced in.
 * Synchronous when nothing on the way is asynchronous (an in-process rate limiter, no shared
 * cache tier), so the hot route costs no promise.
 */
export function runCheck(deps: ReflexDeps, ctx: Ctx, input: CheckInput, started: number): Reply | Promise<Reply> {
  const flags: CheckFlags = {
    checkPii: input.check_pii ?? true,
    checkInjection: input.check_injection ?? true,
    useCache: input.use_cache ?? true,
  }
  const shared = flags.useCache && deps.cache.shared
  const headers = admitSync(deps.limiter, deps.limits, () => ctx.ip, input.user_id)
  if (headers !== undefined && !shared) return reply(ctx, headers, deps.engine.checkJson(input.text, flags), started)
  return runCheckAsync(deps, ctx, input, flags, headers, started)
}

async function runCheckAsync(
  deps: ReflexDeps,
  ctx: Ctx,
  input: CheckInput,
  flags: CheckFlags,
  admitted: Record<string, string> | undefined,
  started: number,
): Promise<Reply> {
  const headers = admitted ?? (await admit(deps.limiter, deps.limits, () => ctx.ip, input.user_id))
  if (!(flags.useCache && deps.cache.shared)) return reply(ctx, headers, deps.engine.checkJson(input.text, flags), started)
  // The shared tier is async; look there (after the in-process tier) before the check.
  const entry = await deps.cache.get(deps.engine.cacheKey(input.text, flags))
  const cached = entry && { value: entry.valueJson, createdAtMs: entry.createdAt.getTime(), expiresAtMs: entry.expiresAt.getTime() }
  return reply(ctx, headers, deps.engine.checkJsonWithEntry(input.text, flags, cached), started)
}

function reply(ctx: Ctx, headers: Record<string, string>, body: string, started: number): Reply {
  const ms = (performance.now() - started).toFixed(3)
  return { status: 200, headers, raw: `{"request_id":${JSON.stringify(ctx.requestId)},${body.slice(1)},"processing_time_ms":${ms}}` }
}

export function checkRoute(deps: ReflexDeps) {
  return (ctx: Ctx): Reply | Promise<Reply> => {
    const started = performance.now()
    return runCheck(deps, ctx, parseCheck(ctx.body), started)
  }
}
