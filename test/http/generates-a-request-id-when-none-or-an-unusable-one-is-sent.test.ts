import t from 'tap'
import { startApp } from './fixtures/start-app.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

t.test('generates a UUID when no X-Request-ID is sent, or one too long or not printable', async (t) => {
  const { url } = await startApp(t, (app) => app.route('GET', '/ok', (ctx) => ({ body: { id: ctx.requestId } }), { permission: 'public' }))

  const none = await fetch(`${url}/ok`)
  const id = none.headers.get('x-request-id') ?? ''
  t.match(id, UUID)
  t.same(await none.json(), { id })

  const tooLong = await fetch(`${url}/ok`, { headers: { 'x-request-id': 'a'.repeat(201) } })
  t.match(tooLong.headers.get('x-request-id'), UUID)

  const longest = await fetch(`${url}/ok`, { headers: { 'x-request-id': 'a'.repeat(200) } })
  t.equal(longest.headers.get('x-request-id'), 'a'.repeat(200))

  const unicode = await fetch(`${url}/ok`, { headers: { 'x-request-id': 'tab\tinside' } })
  t.match(unicode.headers.get('x-request-id'), UUID)

  const other = await fetch(`${url}/ok`)
  t.not(other.headers.get('x-request-id'), id, 'a new id per request')
})
