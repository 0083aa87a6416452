/**
 * Request validation with typebox: declare the schema once, compile it once at start-up, and turn
 * the first error into a 400 that names the field and the rule.
 *
 * ```ts
 * const CheckRequest = Type.Object({ text: Type.String({ minLength: 1 }) }, { additionalProperties: false })
 * const parseCheck = compileSchema(CheckRequest)   // at start-up
 * parseCheck({ text: 1 })                          // throws HttpError.validation('text', 'must be a string')
 * ```
 *
 * Field names are the JSON pointer of the value turned into a path: `budget.max_tokens`,
 * `constraints[2]`; the whole body is `body`. A missing property is named itself
 * (`must have required property`), an unknown one too (`unknown field is not allowed`). A union
 * reports the branch whose type the value has: `{constraints: {max_tokens: 'lots'}}` against
 * object-or-list is `constraints.max_tokens must be an integer`, not `constraints must be an array`.
 */
import type { Static, TSchema } from 'typebox'
import { Compile } from 'typebox/compile'
import type { TLocalizedValidationError } from 'typebox/error'
import { outermostUnion } from '../union-errors.js'
import { HttpError } from './errors.js'

export type Validate<T> = (value: unknown) => T

export function compileSchema<S extends TSchema>(schema: S): Validate<Static<S>> {
  const validator = Compile(schema)
  return (value: unknown): Static<S> => {
    if (validator.Check(value)) return value as Static<S>
    throw firstError(validator.Errors(value), value)
  }
}

/** The HttpError for the first (most useful) of typebox's errors for `value`. */
export function firstError(errors: readonly TLocalizedValidationError[], value: unknown): HttpError {
  const first = errors[0]
  if (first === undefined) return HttpError.validation('body', 'must match the schema')

  // typebox reports the branches of a union before the union itself. When the value has the type
  // of exactly one branch (an object for the object branch, a list for the list branch), that is
  // the branch the client meant: its own first error says what is wrong. Otherwise the union is
  // what the client got wrong, so describe it as a whole.
  const parent = outermostUnion(errors, first)
  if (parent) {
    const meant = meantBranch(errors, parent)
    if (meant !== undefined) return firstError(meant, value)
    const branches = errors.filter((e) => e.schemaPath.startsWith(`${parent.schemaPath}/`) && e.instancePath === parent.instancePath)
    const missing = eitherRequired(branches)
    if (missing !== undefined) {
      const [first, ...others] = missing
      return HttpError.validation(
        fieldName(join(parent.instancePath, first!), value),
        `must have required property ${first} (or ${others.join(', ')})`,
      )
    }
    return HttpError.validation(fieldName(parent.instancePath, value), unionConstraint(branches))
  }

  switch (first.keyword) {
    case 'required': {
      const missing = (first.params as { requiredProperties?: string[] }).requiredProperties?.[0] ?? ''
      return HttpError.validation(fieldName(join(first.instancePath, missing), value), 'must have required property')
    }
    case 'additionalProperties': {
      const extra = (first.params as { additionalProperties?: string[] }).additionalProperties?.[0] ?? ''
      return HttpError.validation(fieldName(join(first.instancePath, extra), value), 'unknown field is not allowed')
    }
    case 'boolean':
      // `additionalProperties: false` is reported per unknown property as a false schema.
      if (first.schemaPath.endsWith('/additionalProperties') || first.schemaPath.endsWith('/unevaluatedProperties'))
        return HttpError.validation(fieldName(first.instancePath, value), 'unknown field is not allowed')
      break
  }
  return HttpError.validation(fieldName(first.instancePath, value), constraintOf(first))
}

function constraintOf(e: TLocalizedValidationError): string {
  switch (e.keyword) {
    case 'type':
      return `must be ${article(e.params.type)}`
    case 'minLength':
      return `must NOT have fewer than ${e.params.limit} characters`
    case 'maxLength':
      return `must NOT have more than ${e.params.limit} characters`
    case 'minItems':
      return `must NOT have fewer than ${e.params.limit} items`
    case 'maxItems':
      return `must NOT have more than ${e.params.limit} items`
    case 'minProperties':
      return `must NOT have fewer than ${e.params.limit} properties`
    case 'maxProperties':
      return `must NOT have more than ${e.params.limit} properties`
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `must be ${e.params.comparison} ${String(e.params.limit)}`
    case 'multipleOf':
      return `must be a multiple of ${String(e.params.multipleOf)}`
    case 'enum':
      return `must be one of ${e.params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`
    case 'const':
      return `must be equal to ${JSON.stringify(e.params.allowedValue)}`
    case 'pattern':
      return `must match pattern ${(e.params as { pattern?: string }).pattern ?? ''}`.trimEnd()
    case 'format':
      return `must be a valid ${e.params.format}`
    case 'uniqueItems':
      return 'must NOT have duplicate items'
    default:
      return e.message
  }
}

/**
 * The errors of the one branch of `union` whose type the value has, when the others all refused
 * its type; undefined when no branch or several fit (then no branch is the one meant).
 */
function meantBranch(
  errors: readonly TLocalizedValidationError[],
  union: TLocalizedValidationError,
): TLocalizedValidationError[] | undefined {
  const base = `${union.schemaPath}/${union.keyword}/`
  const byBranch = new Map<string, TLocalizedValidationError[]>()
  for (const e of errors) {
    if (!e.schemaPath.startsWith(base)) continue
    const rest = e.schemaPath.slice(base.length)
    const slash = rest.indexOf('/')
    const branch = slash === -1 ? rest : rest.slice(0, slash)
    byBranch.set(branch, [...(byBranch.get(branch) ?? []), e])
  }
  const fitting = [...byBranch].filter(
    ([branch, list]) => !list.some((e) => e.keyword === 'type' && e.instancePath === union.instancePath && e.schemaPath === base + branch),
  )
  if (fitting.length !== 1 || fitting.length === byBranch.size) return undefined
  return fitting[0]![1]
}

/** For a union of `required` alone (one of these properties must be sent): the properties, in order. */
function eitherRequired(branches: readonly TLocalizedValidationError[]): string[] | undefined {
  if (branches.length < 2 || branches.some((e) => e.keyword !== 'required')) return undefined
  return branches.map((e) => (e.params as { requiredProperties?: string[] }).requiredProperties?.[0] ?? '')
}

function unionConstraint(branches: readonly TLocalizedValidationError[]): string {
  const consts = branches.filter((e) => e.keyword === 'const')
  if (consts.length > 0 && consts.length === branches.length)
    return `must be one of ${consts.map((e) => JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)).join(', ')}`
  const types = branches.filter((e) => e.keyword === 'type')
  if (types.length > 0 && types.length === branches.length)
    return `must be ${types.map((e) => article((e.params as { type: string | string[] }).type)).join(' or ')}`
  return 'must match one of the allowed forms'
}

function article(type: string | string[]): string {
  if (Array.isArray(type)) return type.map((t) => article(t)).join(' or ')
  if (type === 'null') return 'null'
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`
}

function join(pointer: string, property: string): string {
  return `${pointer}/${property.replace(/~/g, '~0').replace(/\//g, '~1')}`
}

/** `/budget/max_tokens` → `budget.max_tokens`, `/constraints/2` → `constraints[2]`, `` → `body`. */
export function fieldName(pointer: string, value: unknown): string {
  if (pointer === '') return 'body'
  let out = ''
  let node: unknown = value
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (Array.isArray(node)) {
      out += `[${segment}]`
      node = node[Number(segment)]
    } else {
      out += out === '' ? segment : `.${segment}`
      node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[segment] : undefined
    }
  }
  return out
}
