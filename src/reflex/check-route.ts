/**
 * `POST /api/v1/check` (and its drop-in `/process`): cache lookup, personal data, injection,
 * routing. The hot route: with the in-process rate limiter and no shared cache tier, the token,
 * the check and the whole body (request id and timing included) come from one native call
 * (`checkRequest`); otherwise the addon's JSON body comes back as a string and the request id and
 * the timing are spliced around it here.
 */
import { performance } from 'node:perf_hooks'
import type { Ctx, Reply } from '../http/app.js'
import { admit, admitSync, decide } from '../http/rate-limit.js'
import { compileSchema } from '../http/validate.js'
import { MemoryRateLimitStore } from '../stores/memory-rate-limit-store.js'
import { assertLimit, type Limit } from '../stores/rate-limit-store.js'
import type { ReflexDeps } from './deps.js'
import { CHECK_FLAGS, type CheckFlags, checkRequest, checkRequestBody, DECISION_NUMBERS, type NativeReply, replyRoom } from './engine.js'
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
  const key = deps.engine.cacheKey(input.text, flags)
  const entry = await deps.cache.get(key)
  const cached = entry && { value: entry.valueJson, createdAtMs: entry.createdAt.getTime(), expiresAtMs: entry.expiresAt.getTime() }
  // The key goes back in, so the check does not compute it again.
  const body = deps.engine.checkJsonWithEntryFlat(input.text, flags.checkPii, flags.checkInjection, flags.useCache, key, cached)
  return reply(ctx, headers, body, started)
}

function reply(ctx: Ctx, headers: Record<string, string>, body: string, started: number): Reply {
  const ms = (performance.now() - started).toFixed(3)
  return { status: 200, headers, raw: `{"request_id":${JSON.stringify(ctx.requestId)},${body.slice(1)},"processing_time_ms":${ms}}` }
}

/** Room for a reply in checkFromBytes' reused buffer; a longer one comes in a Buffer of its own. */
const REPLY_BYTES = 64 * 1024

/** What the native path needs beyond deps, made once per route. */
interface NativeCheck {
  perUser: Limit
  perIp: Limit
  /** Written by each native call and read straight after it: one per route is enough. */
  decision: Float64Array
}

/** The native path when the rate limiter is the engine's own (in-process, see deps.ts). */
function nativeCheck(deps: ReflexDeps): NativeCheck | undefined {
  if (!(deps.limiter instanceof MemoryRateLimitStore && deps.limiter.isOver(deps.engine))) return undefined
  const { perUser, perIp, windowMs } = deps.limits
  const native = {
    perUser: { capacity: perUser, windowMs },
    perIp: { capacity: perIp, windowMs },
    decision: new Float64Array(DECISION_NUMBERS),
  }
  // MemoryRateLimitStore checks the limits on every take; the native call does not.
  assertLimit(native.perUser, 1)
  assertLimit(native.perIp, 1)
  return native
}

/**
 * `runCheck` in one native call (no shared cache tier asked): the same token, the same check,
 * the same body and headers.
 */
function runCheckNative(deps: ReflexDeps, native: NativeCheck, ctx: Ctx, input: CheckInput, started: number): Reply {
  const byUser = input.user_id !== undefined
  const flags =
    (input.check_pii === false ? 0 : CHECK_FLAGS.pii) |
    (input.check_injection === false ? 0 : CHECK_FLAGS.injection) |
    (input.use_cache === false ? 0 : CHECK_FLAGS.cache)
  const key = byUser ? `user:${input.user_id}` : `ip:${ctx.ip}`
  const d = native.decision
  const reply = checkRequest(
    deps.engine,
    input.text,
    flags,
    ctx.requestId,
    key,
    byUser ? native.perUser : native.perIp,
    performance.now() - started,
    d,
  )
  return nativeReply(deps, d, reply, byUser)
}

/**
 * The reply to a native call: its head and body, or the 429 carrying the RateLimit-* headers.
 * `reused`: the reply is checkFromBytes' buffer (Reply.rawReused).
 */
function nativeReply(deps: ReflexDeps, d: Float64Array, reply: NativeReply | null, byUser: boolean, reused = false): Reply {
  if (reply?.head !== undefined) return { status: 200, head: reply.head, raw: reply.body, rawReused: reused }
  // Refused (decide throws the 429), or no head: a request id the addon would not put in one.
  const headers = decide(
    { allowed: reply !== null, limit: d[1]!, remaining: d[2]!, resetMs: d[3]!, retryAfterMs: d[4]! },
    deps.limits,
    byUser,
  )
  return { status: 200, headers, raw: reply!.body, rawReused: reused }
}

export function checkRoute(deps: ReflexDeps) {
  const native = nativeCheck(deps)
  return (ctx: Ctx): Reply | Promise<Reply> => {
    const started = performance.now()
    const input = parseCheck(ctx.body)
    if (native !== undefined && !(input.use_cache !== false && deps.cache.shared)) return runCheckNative(deps, native, ctx, input, started)
    return runCheck(deps, ctx, input, started)
  }
}

/**
 * For the route's `fromBytes` (http/app.ts): the usual body (`text` and `user_id`) checked straight
 * from its bytes in one native call; undefined for any other body, which then goes the usual way
 * (parse, schema, `checkRoute`). Undefined when the native path is off (see `nativeCheck`) or a
 * shared cache tier is configured.
 */
export function checkFromBytes(deps: ReflexDeps): ((ctx: Ctx, body: Buffer) => Reply | undefined) | undefined {
  const native = nativeCheck(deps)
  if (native === undefined || deps.cache.shared) return undefined
  // Every reply is written here and sent before the next request is read (Reply.rawReused).
  const room = replyRoom(REPLY_BYTES)
  const d = room.decision
  return (ctx, json) => {
    // Nothing happens before the call: processing_time_ms is the native time, parsing included.
    const reply = checkRequestBody(deps.engine, json, ctx.requestId, native.perUser, 0, room)
    if (reply === null && d[0] === -1) return undefined
    return nativeReply(deps, d, reply, true, true)
  }
}
