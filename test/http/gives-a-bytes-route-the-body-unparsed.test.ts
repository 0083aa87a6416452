import t from 'tap'
import { parseJsonBody } from '../../src/http/body.js'
import { startApp } from './fixtures/start-app.js'

t.test('a bytes route gets the JSON body unparsed, after the same checks as a JSON route', async (t) => {
  const seen: string[] = []
  const { url } = await startApp(
    t,
    (app) => {
      app.route<Buffer>(
        'POST',
        '/bytes',
        (ctx) => {
          const text = ctx.body.toString('utf8')
          seen.push(text)
          if (text.includes('"fast"')) return { raw: Buffer.from(`{"fast":true,"id":${JSON.stringify(ctx.requestId)}}`) }
          return { body: { parsed: parseJsonBody(ctx.body) } }
        },
        { permission: 'public', body: 'bytes' },
      )
    },
    { bodyLimitBytes: 1 << 20 },
  )
  const post = (body: string, extra: Record<string, string> = {}) =>
    fetch(`${url}/bytes`, { method: 'POST', headers: { 'content-type': 'application/json', ...extra }, body })

  const fast = await post('{"fast":1}', { 'x-request-id': 'r-1' })
  t.equal(fast.status, 200)
  t.equal(fast.headers.get('x-request-id'), 'r-1')
  t.same(await fast.json(), { fast: true, id: 'r-1' })

  t.same(await (await post('{"slow":1}')).json(), { parsed: { slow: 1 } }, 'the route parses what it chooses to')

  const malformed = await post('{"slow":', { 'x-request-id': 'r-2' })
  t.equal(malformed.status, 400, "the route's own parse answers the usual error")
  t.same((await malformed.json()).error, {
    code: 'VALIDATION_ERROR',
    message: 'Request body is not valid JSON',
    details: { field: 'body', constraint: 'must be valid JSON' },
    request_id: 'r-2',
  })

  const big = JSON.stringify({ slow: 'x'.repeat(200_000) })
  t.same(await (await post(big)).json(), { parsed: { slow: 'x'.repeat(200_000) } }, 'a body in several chunks')
  t.equal(seen.at(-1), big)

  t.equal((await post('{"a":1}', { 'content-type': 'text/plain' })).status, 415, 'not handed over: wrong content type')
  t.equal(
    (await fetch(`${url}/bytes`, { method: 'POST', headers: { 'content-type': 'application/json' } })).status,
    400,
    'nor an empty body',
  )
  t.equal(seen.length, 4)
})
