/**
 * Small checks of a tool's input, each refusing with INPUT_INVALID and a message naming the field:
 * the input comes from a plan (an LLM's, possibly), so every field is checked before use.
 *
 * ```ts
 * const command = requiredString(input, 'command', 256)
 * const timeout = optionalInteger(input, 'timeout_ms', 1, 600_000)
 * ```
 */
import { ArmError } from '../contract.js'

type Input = Record<string, unknown>

export function invalid(message: string): ArmError {
  return new ArmError('INPUT_INVALID', message)
}

export function refuseUnknown(input: Input, known: readonly string[]): void {
  for (const key of Object.keys(input)) {
    if (!known.includes(key)) throw invalid(`unknown field '${key}' (expected ${known.join(', ')})`)
  }
}

export function requiredString(input: Input, field: string, maxLength: number): string {
  const value = input[field]
  if (value === undefined) throw invalid(`'${field}' is required`)
  return checkString(value, field, maxLength)
}

export function optionalString(input: Input, field: string, maxLength: number): string | undefined {
  const value = input[field]
  return value === undefined ? undefined : checkString(value, field, maxLength)
}

function checkString(value: unknown, field: string, maxLength: number): string {
  if (typeof value !== 'string') throw invalid(`'${field}' must be a string`)
  if (value.length > maxLength) throw invalid(`'${field}' is longer than ${maxLength} characters`)
  return value
}

export function optionalInteger(input: Input, field: string, min: number, max: number): number | undefined {
  const value = input[field]
  if (value === undefined) return undefined
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(`'${field}' must be an integer from ${min} to ${max}`)
  }
  return value
}

export function optionalBoolean(input: Input, field: string): boolean | undefined {
  const value = input[field]
  if (value === undefined) return undefined
  if (typeof value !== 'boolean') throw invalid(`'${field}' must be a boolean`)
  return value
}

export function optionalStringArray(input: Input, field: string, maxItems: number, maxBytes: number): string[] {
  const value = input[field]
  if (value === undefined) return []
  if (!Array.isArray(value)) throw invalid(`'${field}' must be an array of strings`)
  if (value.length > maxItems) throw invalid(`'${field}' has more than ${maxItems} items`)
  let bytes = 0
  for (const [i, item] of value.entries()) {
    if (typeof item !== 'string') throw invalid(`'${field}[${i}]' must be a string`)
    // A NUL cannot cross execve: it would silently cut the argument short.
    if (item.includes('\0')) throw invalid(`'${field}[${i}]' contains a NUL character`)
    bytes += Buffer.byteLength(item)
  }
  if (bytes > maxBytes) throw invalid(`'${field}' is larger than ${maxBytes} bytes in total`)
  return value as string[]
}

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8')
}
