import t from 'tap'
import { HttpError } from '../../src/http/errors.js'
import { startApp } from './fixtures/start-app.js'

t.test('fromBytes answers from the bytes, or hands the body on to parsing and the schema', async (t) => {
  const seen: string[] = []
  const { url } = await startApp(
    t,
    (app) => {
      app.route('POST', '/echo', (ctx) => ({ body: { parsed: ctx.body } }), {
        fromBytes: (ctx, bytes) => {
          const text = bytes.toString('utf8')
          seen.push(text)
          if (text.includes('"fast"')) return { raw: Buffer.from(`{"fast":true,"id":${JSON.stringify(ctx.requestId)}}`) }
          if (text.includes('"refuse"')) throw HttpError.validation('refuse', 'must not be sent')
          return undefined
        },
      })
    },
    { bodyLimitBytes: 1 << 20 },
  )
  const post = (body: string, extra: Record<string, string> = {}) =>
    fetch(`${url}/echo`, { method: 'POST', headers: { 'content-type': 'application/json', ...extra }, body })

  const fast = await post('{"fast":1}', { 'x-request-id': 'r-1' })
  t.equal(fast.status, 200)
  t.equal(fast.headers.get('x-request-id'), 'r-1')
  t.same(await fast.json(), { fast: true, id: 'r-1' })

  const usual = await post('{"slow":1}')
  t.same(await usual.json(), { parsed: { slow: 1 } }, 'undefined: parsed and handled as usual')

  const refused = await post('{"refuse":1}', { 'x-request-id': 'r-2' })
  t.equal(refused.status, 400)
  t.same((await refused.json()).error, {
    code: 'VALIDATION_ERROR',
    message: 'Invalid request: refuse must not be sent',
    details: { field: 'refuse', constraint: 'must not be sent' },
    request_id: 'r-2',
  })

  const malformed = await post('{"slow":')
  t.equal(malformed.status, 400, 'a body fromBytes leaves alone still gets the usual errors')
  t.equal((await malformed.json()).error.details.field, 'body')

  const big = JSON.stringify({ slow: 'x'.repeat(200_000) })
  t.same(await (await post(big)).json(), { parsed: { slow: 'x'.repeat(200_000) } }, 'a body in several chunks')
  t.equal(seen.at(-1), big)

  t.equal((await post('{"a":1}', { 'content-type': 'text/plain' })).status, 415, 'not offered: wrong content type')
  t.equal(seen.length, 5)
})
