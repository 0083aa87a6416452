// checkedInput names the one problem of a bad input. For a union (anyOf) that is the problem of
// the branch the value was meant for (the one whose type it has), or, when it has no branch's
// type, every type the union takes: never the first branch's complaint about a value meant for
// another. Every arm that checks its input with typebox words it so.
import t from 'tap'
import Type from 'typebox'
import { Compile } from 'typebox/compile'

import { ArmError, checkedInput, inputInvalid } from '../../src/arms/contract.js'

function messageOf(schema: Type.TSchema, value: unknown): string {
  try {
    checkedInput(schema, value, 'input')
  } catch (err) {
    if (err instanceof ArmError && err.code === 'INPUT_INVALID') return err.message
    throw err
  }
  throw new Error('the input passed')
}

const Constraints = Type.Object({
  constraints: Type.Optional(
    Type.Union([
      Type.Object({ allowed_arms: Type.Optional(Type.Array(Type.String())) }, { additionalProperties: true }),
      Type.Array(Type.String()),
    ]),
  ),
})

t.test('a wrong element or field: the branch the value was meant for', async (t) => {
  t.equal(messageOf(Constraints, { constraints: ['x', 1] }), 'input.constraints.1: must be string')
  t.equal(messageOf(Constraints, { constraints: { allowed_arms: 'x' } }), 'input.constraints.allowed_arms: must be array')
})

t.test('a wrong type: every type the union takes', async (t) => {
  t.equal(messageOf(Constraints, { constraints: 'fast' }), 'input.constraints: must be object or array')
  t.equal(messageOf(Constraints, { constraints: null }), 'input.constraints: must be object or array')
  const Text = Type.Object({ value: Type.Union([Type.String(), Type.Number(), Type.Null()]) })
  t.equal(messageOf(Text, { value: true }), 'input.value: must be string or number or null')
})

t.test('a bound of the branch whose type the value has', async (t) => {
  const Short = Type.Object({ value: Type.Union([Type.String({ minLength: 1, maxLength: 3 }), Type.Integer()]) })
  t.equal(messageOf(Short, { value: 'long' }), 'input.value: must not have more than 3 characters')
  t.equal(messageOf(Short, { value: 1.5 }), 'input.value: must be string or integer', 'a fraction has neither type')
})

t.test('of two branches of the same type, the closer fit', async (t) => {
  const Generate = Type.Object({ spec: Type.String() }, { additionalProperties: false })
  const Repair = Type.Object({ code: Type.String(), error: Type.String() }, { additionalProperties: false })
  const Either = Type.Union([Generate, Repair])
  t.equal(messageOf(Either, { code: '1 +' }), 'input: must have required properties error', 'one problem for repair, two for generate')
  t.equal(
    messageOf(Either, { spec: 'x', extra: 1 }),
    'input.extra: is not a field this input takes',
    'an unknown field, as outside a union',
  )
})

t.test('a union inside a branch is read the same way', async (t) => {
  const Nested = Type.Object({
    v: Type.Union([Type.Array(Type.Union([Type.String(), Type.Object({ id: Type.Integer() })])), Type.Boolean()]),
  })
  t.equal(messageOf(Nested, { v: ['a', 3] }), 'input.v.1: must be string or object')
  t.equal(messageOf(Nested, { v: ['a', { id: 'x' }] }), 'input.v.1.id: must be integer')
  t.equal(messageOf(Nested, { v: 7 }), 'input.v: must be array or boolean')
})

t.test('a union of constants falls back to typebox’s own words', async (t) => {
  const Mode = Type.Object({ mode: Type.Union([Type.Literal('a'), Type.Literal('b')]) })
  t.match(messageOf(Mode, { mode: 'c' }), /^input\.mode: /)
})

t.test('a compiled check’s errors are worded the same', async (t) => {
  const check = Compile(Constraints)
  for (const value of [{ constraints: ['x', 1] }, { constraints: 'fast' }, { constraints: { allowed_arms: [2] } }]) {
    t.equal(inputInvalid(check.Errors(value), 'input').message, messageOf(Constraints, value), JSON.stringify(value))
  }
})
