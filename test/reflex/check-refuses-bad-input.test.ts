import t from 'tap'
import { postJson, reflexUrl } from '../helpers/servers.js'

const cases: Array<[string, unknown, string]> = [
  ['missing text', {}, 'text'],
  ['empty text', { text: '' }, 'text'],
  ['100,001 characters', { text: 'a'.repeat(100_001) }, 'text'],
  ['text of the wrong type', { text: 42 }, 'text'],
  ['a flag of the wrong type', { text: 'hi', check_pii: 'yes' }, 'check_pii'],
  ['an unknown field', { text: 'hi', colour: 'blue' }, 'colour'],
  ['an array body', ['hi'], 'body'],
]

for (const [name, body, field] of cases) {
  t.test(`${name} is a 400 naming ${field}`, async (t) => {
    const base = await reflexUrl(t)
    const res = await postJson(`${base}/api/v1/check`, body, { 'x-request-id': 'bad-1' })
    t.equal(res.status, 400)
    const err = (await res.json()).error
    t.equal(err.code, 'VALIDATION_ERROR')
    t.equal(err.details.field, field)
    t.type(err.details.constraint, 'string')
    t.equal(err.request_id, 'bad-1')
  })
}

t.test('exactly 100,000 characters is accepted', async (t) => {
  const base = await reflexUrl(t)
  const res = await postJson(`${base}/api/v1/check`, { text: 'word '.repeat(20_000) })
  t.equal(res.status, 200)
})

t.test('malformed JSON is a 400 on body', async (t) => {
  const base = await reflexUrl(t)
  const res = await fetch(`${base}/api/v1/check`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text": ' })
  t.equal(res.status, 400)
  t.equal((await res.json()).error.details.field, 'body')
})

t.test('a body that is not JSON is a 415', async (t) => {
  const base = await reflexUrl(t)
  const res = await fetch(`${base}/api/v1/check`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' })
  t.equal(res.status, 415)
  t.equal((await res.json()).error.code, 'UNSUPPORTED_MEDIA_TYPE')
})

t.test('a body over the limit is a 413', async (t) => {
  const base = await reflexUrl(t, { BODY_LIMIT_BYTES: '1000' })
  const res = await postJson(`${base}/api/v1/check`, { text: 'x'.repeat(2000) })
  t.equal(res.status, 413)
  t.equal((await res.json()).error.code, 'PAYLOAD_TOO_LARGE')
})

t.test('an unknown path is a 404 error object', async (t) => {
  const base = await reflexUrl(t)
  const res = await fetch(`${base}/api/v1/nothing-here`)
  t.equal(res.status, 404)
  const err = (await res.json()).error
  t.equal(err.code, 'NOT_FOUND')
  t.ok(res.headers.get('x-request-id'))
})
