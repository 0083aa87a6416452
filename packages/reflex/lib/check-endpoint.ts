/**
 * A whole `POST /api/v1/check` exchange in one native call, for a server whose cache tier is in
 * its own process: the request body's bytes in, the reply's bytes out. Reading the body, checking,
 * looking the answer up and writing the reply there costs about a third of doing each step
 * through the JavaScript API.
 *
 * ```ts
 * const endpoint = new CheckEndpoint({ detector, cache, keys })
 * const answer = endpoint.answer(bodyBytes, requestId, { tenant, rateLimit: decision })
 * if (answer === undefined) handleTheUsualWay(JSON.parse(bodyBytes.toString()))  // not the body it takes
 * else send(200, answer.head, answer.body)  // send it before the next call: the memory is reused
 * ```
 *
 * It takes the usual body: a JSON object of `text` (1..100,000 characters), and optionally
 * `user_id` (1..256, read but selecting nothing), any of `check_pii`, `check_injection` and
 * `use_cache` as booleans and `injection_threshold` and `pii_threshold` as numbers from 0 to 1,
 * each once, nothing else. Any other body is declined (`undefined`), so
 * its errors are the caller's validator's. The reply is the check's JSON with `request_id` first,
 * `cache_hit`, `cache_key` and (on a hit of `tenant`'s stored answer to the exact text, see
 * `AnswerKeys`) `cached_value`, and `processing_time_ms` last; a hit's text is remembered by the
 * detector. Rate limiting is the caller's: it passes the request's decision for the head.
 */
import { answerCheck, checkEndpoint, type ExternalObject } from '../bindings/index.js'
import { type AnswerKeys, nativeAnswerKeys } from './answer-keys.js'
import { type CacheTier, nativeCacheTier } from './cache-tier.js'
import { type Detector, nativeDetector } from './detector.js'
import { assertNumber, assertOptions, coded, fromNative, REFLEX_ERRORS, ReflexError } from './errors.js'

export interface CheckEndpointOptions {
  detector: Detector
  cache: CacheTier
  /** How tenants' answers are keyed in `cache`. */
  keys: AnswerKeys
  /** Bytes kept for replies (default 64 KiB); a longer one comes in a Buffer of its own. */
  replyRoom?: number
}

/** Whom a request is answered for, and its rate-limit numbers for the head. */
export interface AnswerFor {
  tenant: string
  rateLimit?: { limit: number; remaining: number; resetMs: number }
}

/**
 * `body` is the reply's JSON. `head`, for a server that writes a head in one piece (uWS writes a
 * header's value as it is given), is the value of `x-request-id` with every other header's line
 * after it: the request id, then `\r\ncontent-type: …` and, given a rate limit, the three
 * `ratelimit-*` lines; absent for a request id that is not printable ASCII. When `reused`, both
 * are the endpoint's own memory, overwritten by the next `answer`: send or copy them first.
 */
export interface EndpointAnswer {
  head: Buffer | undefined
  body: Buffer
  reused: boolean
}

/** The most bytes kept for replies: 16 MiB. */
const MAX_REPLY_ROOM = 16 * 1024 * 1024

/** The bytes of the reused memory ahead of the reply: the head's length. */
const HEAD_BYTES = 8

/** Throws unless `r` holds whole counts (up to 2³² − 1) and a reset time of zero or more. */
function assertRateLimit(r: AnswerFor['rateLimit']): void {
  assertOptions('rateLimit', r, false)
  const { limit, remaining, resetMs } = r!
  for (const [name, n] of [
    ['limit', limit],
    ['remaining', remaining],
  ] as const) {
    assertNumber(name, n)
    if (!Number.isInteger(n) || n < 0 || n > 0xffff_ffff)
      throw new ReflexError(REFLEX_ERRORS.invalidOption, `${name} must be a whole count up to 4294967295, not ${n}`)
  }
  assertNumber('resetMs', resetMs)
  if (!(resetMs >= 0) || !Number.isFinite(resetMs))
    throw new ReflexError(REFLEX_ERRORS.invalidOption, `resetMs must be a finite number of 0 or more, not ${resetMs}`)
}

export class CheckEndpoint {
  readonly #native: ExternalObject<'CheckEndpoint'>
  readonly #out: Buffer
  readonly #head: Float64Array

  constructor(options: CheckEndpointOptions) {
    assertOptions('options', options, false)
    const { detector, cache, keys, replyRoom = 64 * 1024 } = options
    assertNumber('replyRoom', replyRoom)
    if (!Number.isInteger(replyRoom) || replyRoom < 0 || replyRoom > MAX_REPLY_ROOM) {
      throw new ReflexError(
        REFLEX_ERRORS.invalidOption,
        `replyRoom must be a whole number of bytes up to ${MAX_REPLY_ROOM}, not ${replyRoom}`,
      )
    }
    this.#native = coded(() => checkEndpoint(nativeDetector(detector), nativeCacheTier(cache), nativeAnswerKeys(keys)))
    this.#out = Buffer.allocUnsafeSlow(HEAD_BYTES + replyRoom)
    this.#head = new Float64Array(this.#out.buffer, this.#out.byteOffset, 1)
  }

  /** Answers the request `body`, or undefined when it is not the body the endpoint takes (see above). */
  answer(body: Uint8Array, requestId: string, who: AnswerFor): EndpointAnswer | undefined {
    const out = this.#out
    assertOptions('who', who, false)
    const r = who.rateLimit
    if (r !== undefined) assertRateLimit(r)
    let n: number | Buffer
    try {
      n = answerCheck(this.#native, body, requestId, who.tenant, r?.limit ?? -1, r?.remaining ?? 0, r?.resetMs ?? 0, out)
    } catch (err) {
      throw fromNative(err) // a body that is not bytes, a request id or tenant that is not a string
    }
    if (n === -1) return undefined
    const head = this.#head[0]!
    if (typeof n !== 'number') return { head: head > 0 ? n.subarray(0, head) : undefined, body: n.subarray(head), reused: false }
    return {
      head: head > 0 ? out.subarray(HEAD_BYTES, HEAD_BYTES + head) : undefined,
      body: out.subarray(HEAD_BYTES + head, HEAD_BYTES + n),
      reused: true,
    }
  }
}
