/**
 * The reflex engine port over the native addon. This is the ONE module that imports
 * `bindings/`; everything else takes a `ReflexEngine` from here.
 *
 * ```ts
 * const engine = createEngine({ blockLevel: 'high' })
 * engine.check('mail ada@example.com').piiMatches[0]?.type // 'EMAIL'
 * ```
 */
import {
  type CheckFlags,
  type CheckResult,
  type ExternalObject,
  lastReply,
  ReflexEngine as NativeEngine,
  checkRequest as nativeCheckRequest,
  checkRequestBody as nativeCheckRequestBody,
  packedNames,
  version,
} from '#bindings'
import { isPacked, neededRoom, PACKED_ROOM, unpack } from './unpack.js'

/** The names behind the indices of `checkPacked`'s numbers. */
const NAMES = packedNames()

export type {
  CachedValue,
  CacheTierStats,
  CheckCounters,
  CheckFlags,
  CheckResult,
  EngineOptions,
  InjectionMatch,
  PackedNames,
  PiiMatch,
  RateLimitDecision,
  RedactOptions,
  RedactResult,
  RoutingHint,
} from '#bindings'

/**
 * The addon's engine, with three shortcuts past napi costs (bench/RESULTS.md), same answers:
 * - `check` rebuilds the result from the numbers and strings the addon packs (./unpack.ts), and
 *   `checkAsync` parses the result the addon writes as JSON: both cost less than building the
 *   nested objects through napi (and packing, a fifth of `JSON.parse`'s cost on a text with many
 *   matches). Same fields, order and values as the addon's own object form.
 * - the hot calls pass the flags one by one (the addon's `*Flat` methods): napi reads an object's
 *   properties by name, interning each name on every call.
 * - the check route's calls take the engine's handle (`requestHandle`, made once): napi reads it
 *   for less than it costs to unwrap the engine object on every call.
 */
export class ReflexEngine extends NativeEngine {
  #handle: ExternalObject<'EngineHandle'> | undefined

  /** The handle `checkRequest` and `checkRequestBody` pass to the addon. */
  get handle(): ExternalObject<'EngineHandle'> {
    return (this.#handle ??= this.requestHandle())
  }

  /** `checkPacked`'s numbers, reused by every check; grown after a result that did not fit. */
  #packed = new Float64Array(PACKED_ROOM)

  override check(text: string, flags?: CheckFlags | null): CheckResult {
    const out = this.#packed
    const strings = this.checkPacked(text, flags?.checkPii, flags?.checkInjection, flags?.useCache, out)
    if (isPacked(out)) return unpack(text, strings, out, NAMES)
    if (neededRoom(out) > out.length) this.#packed = new Float64Array(neededRoom(out))
    return JSON.parse(strings) as CheckResult
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

// ---------------------------------------------------------------------------------------------
// The check route's one native call (crates/reflex-node/src/request.rs)
// ---------------------------------------------------------------------------------------------

/** Bits of `checkRequest`'s `flags`: which parts of the check run. */
export const CHECK_FLAGS = { pii: 1, injection: 2, cache: 4 } as const

/** A native check's reply as bytes. */
export interface NativeReply {
  /** `Reply.head`: the request id, the content type and the `RateLimit-*` headers; none for a request id that is not printable ASCII. */
  head: Buffer | undefined
  /** The `/api/v1/check` body: `request_id` first, `processing_time_ms` last. */
  body: Buffer
}

/** The reply the addon wrote in `bytes[from..to]` (head, then body) for a head of `head` bytes: two views, one a part. */
function split(bytes: Buffer, from: number, head: number, to = bytes.length): NativeReply {
  const at = from + head
  return { head: head > 0 ? bytes.subarray(from, at) : undefined, body: bytes.subarray(at, to) }
}

/**
 * Takes one token from `limitKey`'s bucket in `engine`'s in-process limiter and, when allowed,
 * runs the check and returns its reply (`processing_time_ms` = `elapsedMs` + the native time);
 * null when refused, and the check does not run. Either way `decision` (6 numbers) receives
 * allowed (1/0), limit, remaining, resetMs, retryAfterMs and the head's length.
 * One call with primitive arguments instead of `rateLimit` + `checkJson`: the decision object, the
 * flags object and the body's round trip through a JS string cost the route more than the token
 * and the cache lookup (bench/RESULTS.md).
 */
export function checkRequest(
  engine: ReflexEngine,
  text: string,
  flags: number,
  requestId: string,
  limitKey: string,
  limit: { capacity: number; windowMs: number },
  elapsedMs: number,
  decision: Float64Array,
): NativeReply | null {
  const reply = nativeCheckRequest(engine.handle, text, flags, requestId, limitKey, limit.capacity, limit.windowMs, elapsedMs, decision)
  return reply === null ? null : split(reply, 0, decision[5]!)
}

/** The numbers of a native check's decision (see `checkRequest`). */
export const DECISION_NUMBERS = 6
/** The bytes of a `ReplyRoom` ahead of the reply: the decision's numbers. */
const DECISION_BYTES = DECISION_NUMBERS * 8

/** `checkRequestBody`'s memory, made once by its caller: the decision's numbers, then the reply's room. */
export interface ReplyRoom {
  readonly bytes: Buffer
  /** allowed (1/0, or -1: not the usual body), limit, remaining, resetMs, retryAfterMs, head length. */
  readonly decision: Float64Array
}

/** A `ReplyRoom` with room for a reply of `replyBytes`; a longer one comes in a Buffer of its own. */
export function replyRoom(replyBytes: number): ReplyRoom {
  const bytes = Buffer.allocUnsafeSlow(DECISION_BYTES + replyBytes)
  return { bytes, decision: new Float64Array(bytes.buffer, bytes.byteOffset, DECISION_NUMBERS) }
}

/**
 * `checkRequest` (the same reply: head, then body) from the request body's bytes when it is the
 * usual one (a JSON object with `text` and `user_id` and any of the boolean flags, nothing else:
 * crates/reflex-node/src/request/check_body.rs); the token comes from `user:<user_id>`'s bucket of
 * `perUser`. For any other body nothing is taken, `room.decision[0]` is -1 and null comes back:
 * decode and validate it the usual way. Saves decoding the body to a string, `JSON.parse` and
 * handing the text back to the addon.
 *
 * The reply is written into `room`, made once by the caller and reused: what comes back are views
 * of it (of a fresh Buffer only for a reply longer than the room), valid until the next call with
 * the same room. A Buffer made by the addon per reply cost a third of the native call; the decision
 * shares the room's bytes, since napi's reading of each typed array argument costs ~550
 * instructions a call.
 */
export function checkRequestBody(
  engine: ReflexEngine,
  json: Uint8Array,
  requestId: string,
  perUser: { capacity: number; windowMs: number },
  elapsedMs: number,
  room: ReplyRoom,
): NativeReply | null {
  const out = room.bytes
  const length = nativeCheckRequestBody(engine.handle, json, requestId, perUser.capacity, perUser.windowMs, elapsedMs, out)
  if (length < 0) return null
  const head = room.decision[5]!
  return DECISION_BYTES + length <= out.length ? split(out, DECISION_BYTES, head, DECISION_BYTES + length) : split(lastReply(), 0, head)
}
