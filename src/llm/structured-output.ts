/**
 * Structured output, checked the same way for every provider: the reply must hold JSON (the whole
 * reply, or the first balanced object or array in it: a code fence or prose around it is read
 * past, json-in-text.ts) valid against the request's JSON Schema, else `LLM_BAD_OUTPUT` (billed:
 * the model did answer).
 * Validators are compiled once per schema object (typebox compiles plain JSON Schema too).
 *
 * ```ts
 * const value = parseStructured('{"steps":[]}', request.schema, usage, 'gpt-4o-mini')
 * ```
 *
 * `LLM_BAD_OUTPUT` is retryable: sampling again, or another attempt of the step, may well answer
 * in shape.
 */
import { Compile } from 'typebox/compile'

import { BilledLlmError } from './billed-error.js'
import { jsonInText } from './json-in-text.js'
import { type CompletionRequest, LlmError, type Usage } from './provider.js'

type Schema = NonNullable<CompletionRequest['schema']>
type Validator = ReturnType<typeof Compile>

const validators = new WeakMap<object, Validator>()

function validatorFor(schema: Schema): Validator {
  let validator = validators.get(schema.schema)
  if (validator === undefined) {
    try {
      validator = Compile(schema.schema as Parameters<typeof Compile>[0])
    } catch (err) {
      throw new LlmError('LLM_BAD_REQUEST', `schema.schema: cannot be compiled (${(err as Error).message})`)
    }
    validators.set(schema.schema, validator)
  }
  return validator
}

/** Compiles the schema up front, so a bad schema fails before the model is paid. */
export function prepareSchema(schema: Schema | undefined): void {
  if (schema !== undefined) validatorFor(schema)
}

/**
 * Reads the JSON in `text` and checks it; `checkStructured` instead when the provider already
 * parsed it. `cut`: the model stopped at its token limit, which the error then says (a reply cut
 * short seldom parses).
 */
export function parseStructured(text: string, schema: Schema, usage: Usage, model: string, cut = false): unknown {
  const read = jsonInText(text)
  if (!read.found) {
    const why = cut ? 'was cut off at the token limit' : 'is not JSON'
    throw new BilledLlmError('LLM_BAD_OUTPUT', `reply for schema '${schema.name}' ${why}`, usage, model, true)
  }
  return checkStructured(read.value, schema, usage, model)
}

export function checkStructured(value: unknown, schema: Schema, usage: Usage, model: string): unknown {
  const validator = validatorFor(schema)
  if (validator.Check(value)) return value
  const first = validator.Errors(value)[0]
  const where = first ? `${first.instancePath || '/'} ${first.message}` : 'does not match'
  throw new BilledLlmError('LLM_BAD_OUTPUT', `reply does not match schema '${schema.name}': ${where}`, usage, model, true)
}
