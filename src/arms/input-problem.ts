/**
 * The one problem an arm's INPUT_INVALID names, read from typebox's errors for the value (the
 * interpreted `Value.Errors` or a compiled check's `Errors`: both list a union's branches before
 * the union itself).
 *
 * ```ts
 * inputProblem(Value.Errors(Type.Object({ c: Type.Union([Type.Object({}), Type.Array(Type.String())]) }), { c: ['x', 1] }))
 * // { path: '/c/1', message: 'must be string' }      (typebox's first error: '/c', 'must be object')
 * ```
 *
 * Taking typebox's first error would word a union by its first branch, telling a caller who sent
 * `constraints: ['x', 1]` that constraints must be an object. For a union instead:
 * - the branches whose type the value has (their errors are about an element, a field or a bound):
 *   the problem of the one with the fewest errors, the closest fit, read the same way (unions nest);
 * - when the value has no branch's type: every type the union takes, `must be object or array`.
 */
import type { TLocalizedValidationError } from 'typebox/error'
import { outermostUnion } from '../union-errors.js'

export interface InputProblem {
  /** JSON pointer into the value: `/constraints/1`; '' for the value itself. */
  path: string
  message: string
}

export function inputProblem(errors: readonly TLocalizedValidationError[]): InputProblem {
  const first = errors[0]
  if (first === undefined) return { path: '', message: 'invalid' }
  const union = outermostUnion(errors, first, ['anyOf'])
  if (union === undefined) return { path: first.instancePath, message: plainMessage(first) }
  const branches = branchErrors(errors, union)
  const fitting = branches.filter((b) => !b.some((e) => e.instancePath === union.instancePath && MISMATCH.has(e.keyword)))
  if (fitting.length > 0) return inputProblem(fitting.reduce((best, b) => (b.length < best.length ? b : best)))
  const types = [
    ...new Set(
      branches
        .flat()
        .filter((e) => e.keyword === 'type' && e.instancePath === union.instancePath)
        .map(typeName),
    ),
  ]
  return { path: union.instancePath, message: types.length > 0 ? `must be ${types.join(' or ')}` : union.message }
}

/** Keywords that say the value is not what a branch takes at all, rather than a wrong part of it. */
const MISMATCH = new Set(['type', 'const', 'enum'])

/** The union's errors grouped by branch, in branch order. */
function branchErrors(errors: readonly TLocalizedValidationError[], union: TLocalizedValidationError): TLocalizedValidationError[][] {
  const prefix = `${union.schemaPath}/anyOf/`
  const byBranch = new Map<string, TLocalizedValidationError[]>()
  for (const e of errors) {
    if (!e.schemaPath.startsWith(prefix)) continue
    const branch = e.schemaPath.slice(prefix.length).split('/')[0]!
    byBranch.set(branch, [...(byBranch.get(branch) ?? []), e])
  }
  return [...byBranch.values()]
}

function typeName(e: TLocalizedValidationError): string {
  return e.message.replace(/^must be /, '')
}

/** typebox reports a field `additionalProperties: false` refuses as a "boolean" schema: say what that means. */
function plainMessage(e: TLocalizedValidationError): string {
  return e.keyword === 'boolean' && e.schemaPath.endsWith('/additionalProperties') ? 'is not a field this input takes' : e.message
}
