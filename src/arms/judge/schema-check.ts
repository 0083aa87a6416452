/**
 * `json_schema` checks: a JSON Schema from a check definition, validated with typebox's `Value`
 * (no code generation: the schema comes from a plan, and `Compile` would build a function from
 * it). Typebox does not judge the schema itself (`{ type: 'strnig' }` accepts everything), so
 * `schemaProblem` looks over the keywords that change the outcome first, and a schema it finds
 * wrong is a bad check definition rather than a silent pass.
 *
 * ```ts
 * schemaProblem({ type: 'object', required: 'a' })      // 'required: must be an array of strings'
 * validate({ type: 'integer' }, 6765)                   // []
 * validate({ type: 'integer' }, 'x')                    // ['/ must be integer']
 * ```
 */
import { Value } from 'typebox/value'

import { type CheckBudget, RUN_LIMIT_MS } from '../check-budget.js'
import { vetSchemaPattern } from './safe-regex.js'

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'])
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems']
const SCHEMA_ONES = [
  'not',
  'items',
  'additionalProperties',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
]
const COUNTS = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'minContains', 'maxContains']
const NUMBERS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']
/** Schemas nested deeper are refused: the walk and typebox both recurse. */
const MAX_DEPTH = 32
/** Typebox runs `pattern` and `patternProperties` with no limit of its own; past this, CheckBudgetError. */
export const VALIDATE_TIMEOUT_MS = RUN_LIMIT_MS

/** The first thing wrong with `schema`, as `where: what`, or undefined when it looks sound. */
export function schemaProblem(schema: unknown, at = '', depth = 0): string | undefined {
  const where = at === '' ? 'schema' : at
  if (typeof schema === 'boolean') return undefined
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return `${where}: must be an object or a boolean`
  if (depth > MAX_DEPTH) return `${where}: nested deeper than ${MAX_DEPTH}`
  const s = schema as Record<string, unknown>
  if ('type' in s) {
    const types = Array.isArray(s.type) ? s.type : [s.type]
    const bad = types.find((t) => typeof t !== 'string' || !TYPES.has(t))
    if (types.length === 0 || bad !== undefined) return `${where}.type: ${JSON.stringify(bad ?? s.type)} is not a JSON type`
  }
  if ('required' in s && !(Array.isArray(s.required) && s.required.every((r) => typeof r === 'string')))
    return `${where}.required: must be an array of strings`
  if ('enum' in s && !Array.isArray(s.enum)) return `${where}.enum: must be an array`
  for (const key of COUNTS)
    if (key in s && !(Number.isInteger(s[key]) && (s[key] as number) >= 0)) return `${where}.${key}: must be a non-negative integer`
  for (const key of NUMBERS) if (key in s && typeof s[key] !== 'number') return `${where}.${key}: must be a number`
  if ('pattern' in s) {
    if (typeof s.pattern !== 'string') return `${where}.pattern: must be a string`
    try {
      vetSchemaPattern(s.pattern)
    } catch (err) {
      return `${where}.pattern: ${(err as Error).message}`
    }
  }
  if ('$ref' in s) return `${where}.$ref: references are not supported; inline the schema`
  for (const key of SCHEMA_MAPS) {
    if (!(key in s)) continue
    const map = s[key]
    if (map === null || typeof map !== 'object' || Array.isArray(map)) return `${where}.${key}: must be an object of schemas`
    for (const [name, sub] of Object.entries(map)) {
      // patternProperties' keys are patterns: the same guards as `pattern`
      if (key === 'patternProperties') {
        try {
          vetSchemaPattern(name)
        } catch (err) {
          return `${where}.${key}: ${JSON.stringify(name.slice(0, 80))}: ${(err as Error).message}`
        }
      }
      const problem = schemaProblem(sub, `${where}.${key}.${name}`, depth + 1)
      if (problem) return problem
    }
  }
  for (const key of SCHEMA_LISTS) {
    if (!(key in s)) continue
    const list = s[key]
    if (!Array.isArray(list)) return `${where}.${key}: must be an array of schemas`
    for (const [i, sub] of list.entries()) {
      const problem = schemaProblem(sub, `${where}.${key}.${i}`, depth + 1)
      if (problem) return problem
    }
  }
  for (const key of SCHEMA_ONES) {
    if (!(key in s)) continue
    const problem = schemaProblem(s[key], `${where}.${key}`, depth + 1)
    if (problem) return problem
  }
  return undefined
}

/**
 * Problems with `value` against `schema`, each `instancePath message`; empty when valid. Up to 5.
 * Throws CheckBudgetError when validation runs past `VALIDATE_TIMEOUT_MS` (a backtracking pattern)
 * or past what is left of `budget`.
 */
export function validate(schema: unknown, value: unknown, budget: CheckBudget): string[] {
  const typed = schema as Parameters<typeof Value.Check>[0]
  return budget.run(
    () => {
      if (Value.Check(typed, value)) return []
      const errors = Value.Errors(typed, value)
        .slice(0, 5)
        .map((e) => `${e.instancePath || '/'} ${e.message}`)
      return errors.length > 0 ? errors : ['does not match the schema']
    },
    VALIDATE_TIMEOUT_MS,
    'validating against the schema',
  )
}
