import t from 'tap'
import { Type } from 'typebox'
import { compileSchema } from '../../src/http/validate.js'
import { errorOf, JSON_HEADERS, startApp } from './fixtures/start-app.js'

const CheckRequest = Type.Object(
  {
    text: Type.String({ minLength: 1, maxLength: 10 }),
    budget: Type.Optional(Type.Object({ max_tokens: Type.Integer({ minimum: 1 }) }, { additionalProperties: false })),
  },
  { additionalProperties: false },
)
const parseCheck = compileSchema(CheckRequest) // compiled once, as at start-up

t.test('returns 400 naming the field and the rule when the body fails the schema', async (t) => {
  let seen: unknown
  const { url } = await startApp(t, (app) =>
    app.route(
      'POST',
      '/check',
      (ctx) => {
        seen = ctx.body.text // typed from the schema
        return { body: { ok: true } }
      },
      { permission: 'public', schema: parseCheck },
    ),
  )

  const cases: [unknown, string, string][] = [
    [{}, 'text', 'must have required property'],
    [{ text: 5 }, 'text', 'must be a string'],
    [{ text: 'x'.repeat(11) }, 'text', 'must NOT have more than 10 characters'],
    [{ text: 'ok', extra: true }, 'extra', 'unknown field is not allowed'],
    [{ text: 'ok', budget: { max_tokens: 'many' } }, 'budget.max_tokens', 'must be an integer'],
    [[], 'body', 'must be an object'],
  ]
  for (const [body, field, constraint] of cases) {
    const res = await fetch(`${url}/check`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(body) })
    t.equal(res.status, 400, JSON.stringify(body))
    const error = await errorOf(res)
    t.equal(error.code, 'VALIDATION_ERROR')
    t.same(error.details, { field, constraint }, JSON.stringify(body))
  }

  const ok = await fetch(`${url}/check`, { method: 'POST', headers: JSON_HEADERS, body: '{"text":"hello"}' })
  t.equal(ok.status, 200)
  t.equal(seen, 'hello')
})
