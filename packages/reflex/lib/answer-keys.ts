/**
 * Where a tenant's stored answer to a text lives in a cache: a keyed hash (HMAC-SHA-256 with a
 * server secret) of the tenant, the check options and the exact text. A client can neither
 * compute another tenant's key nor plant a value under one, and a differently worded text never
 * shares an answer (unlike `CheckResult.cache_key`, the normalised key, which texts differing only
 * in case or spacing share).
 *
 * ```ts
 * const keys = new AnswerKeys(secret)            // the same secret in every process of a deployment
 * cache.set(keys.key(tenant, goal), JSON.stringify(answer), 3600)
 * ```
 */
import { AnswerKeys as NativeAnswerKeys } from '../bindings/index.js'
import { assertOptions, assertString, assertThresholds, coded, REFLEX_ERRORS, ReflexError } from './errors.js'
import type { CheckOptions } from './types.js'

const natives = new WeakMap<AnswerKeys, NativeAnswerKeys>()

export class AnswerKeys {
  readonly #native: NativeAnswerKeys

  /** Throws `REFLEX_ERR_INVALID_OPTION` for a secret shorter than 16 bytes. */
  constructor(secret: Uint8Array | string) {
    const bytes = typeof secret === 'string' ? Buffer.from(secret) : secret
    if (!(bytes instanceof Uint8Array)) throw new ReflexError(REFLEX_ERRORS.invalidArgument, 'secret must be bytes or a string')
    if (bytes.length < 16) throw new ReflexError(REFLEX_ERRORS.invalidOption, 'secret must be at least 16 bytes')
    this.#native = coded(() => new NativeAnswerKeys(Buffer.from(bytes)))
    natives.set(this, this.#native)
  }

  /** The key of `tenant`'s answer to `text` checked with `options`: `ans:` and 32 hex characters. */
  key(tenant: string, text: string, options?: CheckOptions): string {
    assertString('tenant', tenant)
    assertString('text', text)
    assertOptions('options', options)
    assertThresholds(options)
    return coded(() => this.#native.key(tenant, text, options))
  }
}

/** `keys`' addon object. */
export function nativeAnswerKeys(keys: AnswerKeys): NativeAnswerKeys {
  return natives.get(keys)!
}
