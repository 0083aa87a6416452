/**
 * A whole `POST /api/v1/check` exchange in one native call, for a server whose limiter and cache
 * tier are in its own process: the request body's bytes in, the reply's bytes out. Reading the
 * body, taking the token, checking, looking the key up and writing the reply there costs about a
 * third of doing each step through the JavaScript API.
 *
 * ```ts
 * const endpoint = new CheckEndpoint({ detector, cache, limiter, perUser: { capacity: 1000, windowMs: 60_000 } })
 * const answer = endpoint.answer(bodyBytes, requestId)
 * if (answer === undefined) handleTheUsualWay(JSON.parse(bodyBytes.toString()))  // not the body it takes
 * else if (answer.kind === 'refused') reply429(answer.decision)
 * else send(200, answer.body)  // send it before the next call: the memory is reused
 * ```
 *
 * It takes the usual body: a JSON object of `text` (1..100,000 characters) and `user_id`
 * (1..256), and any of `check_pii`, `check_injection` and `use_cache` as booleans, each once,
 * nothing else. The token comes from the bucket `user:<user_id>`. Any other body is declined
 * (`undefined`, nothing taken), so its errors are the caller's validator's. The reply is the
 * check's JSON with `request_id` first, `cache_hit`, `cache_key` and (on a hit) `cached_value`,
 * and `processing_time_ms` last; a hit's text is remembered by the detector.
 */
import { answerCheck, checkEndpoint, type ExternalObject } from '../bindings/index.js'
import { type CacheTier, nativeCacheTier } from './cache-tier.js'
import { type Detector, nativeDetector } from './detector.js'
import { assertNumber, assertOptions, coded, fromNative, REFLEX_ERRORS, ReflexError } from './errors.js'
import { assertLimit, nativeRateLimiter, type RateLimiter } from './rate-limiter.js'
import type { Limit, RateLimitDecision } from './types.js'

export interface CheckEndpointOptions {
  detector: Detector
  cache: CacheTier
  limiter: RateLimiter
  /** Each user's bucket. */
  perUser: Limit
  /** Bytes kept for replies (default 64 KiB); a longer one comes in a Buffer of its own. */
  replyRoom?: number
}

export type EndpointAnswer =
  /**
   * `body` is the reply's JSON. `head`, for a server that writes a head in one piece (uWS writes a
   * header's value as it is given), is the value of `x-request-id` with every other header's line
   * after it: the request id, then `\r\ncontent-type: …` and the three `ratelimit-*` lines; absent
   * for a request id that is not printable ASCII. When `reused`, both are the endpoint's own
   * memory, overwritten by the next `answer`: send or copy them first.
   */
  | { kind: 'answered'; decision: RateLimitDecision; head: Buffer | undefined; body: Buffer; reused: boolean }
  /** The user's bucket is empty: nothing was checked. */
  | { kind: 'refused'; decision: RateLimitDecision }

/** The most bytes kept for replies: 16 MiB. */
const MAX_REPLY_ROOM = 16 * 1024 * 1024

/** The bytes of the reused memory ahead of the reply: the decision's six numbers. */
const DECISION_BYTES = 6 * 8

export class CheckEndpoint {
  readonly #native: ExternalObject<'CheckEndpoint'>
  readonly #out: Buffer
  readonly #decision: Float64Array

  constructor(options: CheckEndpointOptions) {
    assertOptions('options', options, false)
    const { detector, cache, limiter, perUser, replyRoom = 64 * 1024 } = options
    assertLimit(perUser)
    assertNumber('replyRoom', replyRoom)
    if (!Number.isInteger(replyRoom) || replyRoom < 0 || replyRoom > MAX_REPLY_ROOM) {
      throw new ReflexError(
        REFLEX_ERRORS.invalidOption,
        `replyRoom must be a whole number of bytes up to ${MAX_REPLY_ROOM}, not ${replyRoom}`,
      )
    }
    this.#native = coded(() => checkEndpoint(nativeDetector(detector), nativeCacheTier(cache), nativeRateLimiter(limiter), perUser))
    this.#out = Buffer.allocUnsafeSlow(DECISION_BYTES + replyRoom)
    this.#decision = new Float64Array(this.#out.buffer, this.#out.byteOffset, 6)
  }

  /** Answers the request `body`, or undefined when it is not the body the endpoint takes (see above). */
  answer(body: Uint8Array, requestId: string): EndpointAnswer | undefined {
    const out = this.#out
    let n: number | Buffer
    try {
      n = answerCheck(this.#native, body, requestId, out)
    } catch (err) {
      throw fromNative(err) // a body that is not bytes, a request id that is not a string
    }
    if (n === -1) return undefined
    const d = this.#decision
    const decision = { allowed: d[0] === 1, limit: d[1]!, remaining: d[2]!, resetMs: d[3]!, retryAfterMs: d[4]! }
    if (n === -2) return { kind: 'refused', decision }
    const head = d[5]!
    const [reply, from, to, reused] = typeof n === 'number' ? [out, DECISION_BYTES, DECISION_BYTES + n, true] : [n, 0, n.length, false]
    return {
      kind: 'answered',
      decision,
      head: head > 0 ? reply.subarray(from, from + head) : undefined,
      body: reply.subarray(from + head, to),
      reused,
    }
  }
}
