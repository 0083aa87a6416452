/**
 * Every error the API throws is a `ReflexError` with a stable `code`: switch on the code, never on
 * the message.
 *
 * ```ts
 * try {
 *   cache.set(key, body, 60)
 * } catch (err) {
 *   if (err instanceof ReflexError && err.code === REFLEX_ERRORS.valueTooLarge) skipCaching()
 *   else throw err
 * }
 * ```
 */

export const REFLEX_ERRORS = {
  /** An argument has the wrong type (a text that is not a string, a body that is not bytes). */
  invalidArgument: 'REFLEX_ERR_INVALID_ARGUMENT',
  /** An option is outside its set: an unknown block level or redaction mode, a threshold not a number from 0 to 1, a lifetime or window under 1 ms, a capacity under 1. */
  invalidOption: 'REFLEX_ERR_INVALID_OPTION',
  /** A cache value is not one JSON document. */
  invalidValue: 'REFLEX_ERR_INVALID_VALUE',
  /** A cache entry is larger than the tier holds. */
  valueTooLarge: 'REFLEX_ERR_VALUE_TOO_LARGE',
  /** A bug in the native code: it threw instead of ending the process. */
  internal: 'REFLEX_ERR_INTERNAL',
} as const

export type ReflexErrorCode = (typeof REFLEX_ERRORS)[keyof typeof REFLEX_ERRORS]

const CODES = new Set<string>(Object.values(REFLEX_ERRORS))

export class ReflexError extends Error {
  override name = 'ReflexError'
  readonly code: ReflexErrorCode

  constructor(code: ReflexErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.code = code
  }
}

/**
 * `err` from the addon as a `ReflexError`: its own code when it carries one of the catalogue's,
 * `invalidArgument` for napi's conversion errors (`StringExpected`, `InvalidArg`…), else `internal`.
 */
export function fromNative(err: unknown): ReflexError {
  if (err instanceof ReflexError) return err
  const code = (err as { code?: unknown } | null)?.code
  const message = err instanceof Error ? err.message : String(err)
  let mapped: ReflexErrorCode = REFLEX_ERRORS.internal
  if (typeof code === 'string' && CODES.has(code)) mapped = code as ReflexErrorCode
  else if (typeof code === 'string' && (code === 'InvalidArg' || code.endsWith('Expected'))) mapped = REFLEX_ERRORS.invalidArgument
  return new ReflexError(mapped, message, { cause: err })
}

/** Calls `f`, rethrowing what the addon throws as a `ReflexError`. */
export function coded<T>(f: () => T): T {
  try {
    return f()
  } catch (err) {
    throw fromNative(err)
  }
}

/** Throws `invalidArgument` unless `value` is a string. */
export function assertString(name: string, value: unknown): asserts value is string {
  if (typeof value !== 'string') throw new ReflexError(REFLEX_ERRORS.invalidArgument, `${name} must be a string, not ${typeof value}`)
}

/** Throws `invalidArgument` unless `value` is a number. */
export function assertNumber(name: string, value: unknown): asserts value is number {
  if (typeof value !== 'number') throw new ReflexError(REFLEX_ERRORS.invalidArgument, `${name} must be a number, not ${typeof value}`)
}

/** Throws `invalidOption` unless each threshold `options` gives is a number from 0 to 1. */
export function assertThresholds(options: { injectionThreshold?: unknown; piiThreshold?: unknown } | undefined): void {
  if (options === undefined) return
  for (const [name, t] of [
    ['injectionThreshold', options.injectionThreshold],
    ['piiThreshold', options.piiThreshold],
  ] as const) {
    if (t !== undefined && !(typeof t === 'number' && t >= 0 && t <= 1))
      throw new ReflexError(REFLEX_ERRORS.invalidOption, `${name} must be a finite number from 0 to 1, not ${String(t)}`)
  }
}

/** Throws `invalidArgument` unless `value` is an options object (or absent, when `optional`). */
export function assertOptions(name: string, value: unknown, optional = true): void {
  if (optional && value === undefined) return
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ReflexError(REFLEX_ERRORS.invalidArgument, `${name} must be an object, not ${value === null ? 'null' : typeof value}`)
  }
}
