/**
 * Reading a typebox validation failure inside a union: the outermost union whose branches the
 * first error belongs to is the one the caller's value broke, so the error to report is chosen
 * among that union's branches (src/http/validate.ts for request bodies, src/arms/input-problem.ts
 * for arm inputs).
 */
import type { TLocalizedValidationError } from 'typebox/error'

export type UnionKeyword = 'anyOf' | 'oneOf'

/** The outermost union (of the `keywords` kinds) whose branches `first` is an error of. */
export function outermostUnion(
  errors: readonly TLocalizedValidationError[],
  first: TLocalizedValidationError,
  keywords: readonly UnionKeyword[] = ['anyOf', 'oneOf'],
): TLocalizedValidationError | undefined {
  let outer: TLocalizedValidationError | undefined
  for (const e of errors) {
    if (!(keywords as readonly string[]).includes(e.keyword)) continue
    if (!first.schemaPath.startsWith(`${e.schemaPath}/${e.keyword}/`)) continue
    if (outer === undefined || e.schemaPath.length < outer.schemaPath.length) outer = e
  }
  return outer
}
