import t from 'tap'
import { Type } from 'typebox'
import { HttpError } from '../../src/http/errors.js'
import { compileSchema, fieldName } from '../../src/http/validate.js'

const Task = Type.Object(
  {
    goal: Type.String({ minLength: 1, maxLength: 5 }),
    constraints: Type.Optional(Type.Union([Type.Array(Type.String(), { maxItems: 3 }), Type.Object({})])),
    budget: Type.Optional(Type.Object({ max_tokens: Type.Integer({ minimum: 1, maximum: 10 }) }, { additionalProperties: false })),
    priority: Type.Optional(Type.Union([Type.Literal('low'), Type.Literal('high')])),
    tags: Type.Optional(Type.Array(Type.String({ maxLength: 2 }))),
  },
  { additionalProperties: false },
)
const parse = compileSchema(Task)

function failure(value: unknown): { field?: string; constraint?: string } {
  try {
    parse(value)
  } catch (err) {
    if (err instanceof HttpError && err.code === 'VALIDATION_ERROR') return err.details
    throw err
  }
  throw new Error('expected a validation error')
}

t.test('returns the value, typed, when it is valid', async (t) => {
  const task = parse({ goal: 'go', budget: { max_tokens: 3 } })
  t.equal(task.goal, 'go')
})

t.test('names the field and the rule of the first error', async (t) => {
  t.same(failure({}), { field: 'goal', constraint: 'must have required property' })
  t.same(failure({ goal: 1 }), { field: 'goal', constraint: 'must be a string' })
  t.same(failure({ goal: '' }), { field: 'goal', constraint: 'must NOT have fewer than 1 characters' })
  t.same(failure({ goal: 'toolong' }), { field: 'goal', constraint: 'must NOT have more than 5 characters' })
  t.same(failure({ goal: 'g', colour: 'red' }), { field: 'colour', constraint: 'unknown field is not allowed' })
  t.same(failure({ goal: 'g', budget: { max_tokens: 1, extra: 1 } }), { field: 'budget.extra', constraint: 'unknown field is not allowed' })
  t.same(failure({ goal: 'g', budget: {} }), { field: 'budget.max_tokens', constraint: 'must have required property' })
  t.same(failure({ goal: 'g', budget: { max_tokens: 1.5 } }), { field: 'budget.max_tokens', constraint: 'must be an integer' })
  t.same(failure({ goal: 'g', budget: { max_tokens: 11 } }), { field: 'budget.max_tokens', constraint: 'must be <= 10' })
  t.same(failure({ goal: 'g', tags: ['ok', 'long'] }), { field: 'tags[1]', constraint: 'must NOT have more than 2 characters' })
  t.same(failure({ goal: 'g', priority: 'urgent' }), { field: 'priority', constraint: 'must be one of "low", "high"' })
  t.same(failure({ goal: 'g', constraints: 'short' }), { field: 'constraints', constraint: 'must be an array or an object' })
  t.same(failure(null), { field: 'body', constraint: 'must be an object' })
})

t.test('turns JSON pointers into dotted names with [index] for arrays', async (t) => {
  t.equal(fieldName('', {}), 'body')
  t.equal(fieldName('/budget/max_tokens', { budget: {} }), 'budget.max_tokens')
  t.equal(fieldName('/constraints/2', { constraints: [1, 2, 3] }), 'constraints[2]')
  t.equal(fieldName('/a~1b/c~0d', {}), 'a/b.c~d')
  t.equal(fieldName('/items/0/name', { items: [{}] }), 'items[0].name')
})

t.test('a union names the error of the branch whose type the value has', async (t) => {
  const Request = Type.Object({
    constraints: Type.Optional(
      Type.Union([
        Type.Object({ max_tokens: Type.Optional(Type.Integer({ minimum: 1 })) }),
        Type.Array(Type.String({ minLength: 1 }), { maxItems: 2 }),
      ]),
    ),
    context: Type.Optional(
      Type.Union([Type.Object({ inner: Type.Optional(Type.Union([Type.Integer(), Type.Array(Type.Integer())])) }), Type.String()]),
    ),
  })
  const parse = compileSchema(Request)
  const details = (value: unknown) => {
    try {
      parse(value)
    } catch (err) {
      return (err as HttpError).details
    }
    throw new Error('expected a validation error')
  }
  t.same(details({ constraints: { max_tokens: 'lots' } }), { field: 'constraints.max_tokens', constraint: 'must be an integer' })
  t.same(details({ constraints: { max_tokens: 0 } }), { field: 'constraints.max_tokens', constraint: 'must be >= 1' })
  t.same(details({ constraints: ['fast', 3] }), { field: 'constraints[1]', constraint: 'must be a string' })
  t.same(details({ constraints: ['a', 'b', 'c'] }), { field: 'constraints', constraint: 'must NOT have more than 2 items' })
  t.same(details({ constraints: 5 }), { field: 'constraints', constraint: 'must be an object or an array' })
  t.same(details({ context: { inner: ['x'] } }), { field: 'context.inner[0]', constraint: 'must be an integer' }, 'a union inside a branch')
  t.same(details({ context: { inner: 'x' } }), { field: 'context.inner', constraint: 'must be an integer or an array' })
})

t.test('literals of the same type are still told as one list', async (t) => {
  t.same(failure({ goal: 'g', priority: 'urgent' }), { field: 'priority', constraint: 'must be one of "low", "high"' })
  t.same(failure({ goal: 'g', constraints: ['a', 'b', 'c', 'd'] }), { field: 'constraints', constraint: 'must NOT have more than 3 items' })
})
