// Each open event stream holds a socket and reads the store on news, so a caller may hold only so many
// at once (STREAMS_PER_USER) and the service only so many in all (STREAMS_TOTAL). A stream past a
// cap is refused with 429 before it starts; a closed one gives its slot back.
import t, { type Test } from 'tap'
import { createAuthenticator } from '../../src/auth/authenticator.js'
import type { Principal, Role } from '../../src/auth/principal.js'
import { streamWrite } from '../../src/http/stream-write.js'
import { type ErrorJson, startApp } from '../http/fixtures/start-app.js'

/** Tokens `<role>:<id>` stand for principal `<id>` with that one role. */
const byToken = {
  accepts: (token: string) => token.includes(':'),
  verify: async (token: string): Promise<Principal> => {
    const [role, id] = token.split(':') as [Role, string]
    return { id, tenant: 'acme', roles: [role], via: 'api-key' }
  },
}

async function streamingApp(t: Test, streams: { perCaller: number; total: number }) {
  const { url } = await startApp(
    t,
    (app) =>
      app.stream(
        'GET',
        '/events',
        async (ctx, res) => {
          res.header('content-type', 'text/event-stream')
          await streamWrite(res, 'data: open\n\n')
          while (!ctx.signal.aborted) await new Promise((resolve) => setTimeout(resolve, 10))
          if (!res.completed) res.end()
        },
        { permission: 'tasks:read' },
      ),
    { authenticate: createAuthenticator({ mode: 'required', verifiers: [byToken] }), streams },
  )
  const opened: AbortController[] = []
  t.teardown(() => {
    for (const c of opened) c.abort()
  })
  /** Opens a stream as `token`: the response, with its first event read when it is open. */
  const open = async (token: string, headers: Record<string, string> = {}) => {
    const client = new AbortController()
    opened.push(client)
    const res = await fetch(`${url}/events`, { signal: client.signal, headers: { authorization: `Bearer ${token}`, ...headers } })
    if (res.status === 200) await res.body!.getReader().read()
    return { res, close: () => client.abort() }
  }
  return { url, open }
}

t.test('a caller past its cap is refused with 429 naming the cap, and others are not', async (t) => {
  const { open } = await streamingApp(t, { perCaller: 2, total: 0 })
  t.equal((await open('member:ada')).res.status, 200)
  t.equal((await open('member:ada')).res.status, 200)
  const third = (await open('member:ada')).res
  t.equal(third.status, 429)
  t.equal(third.headers.get('retry-after'), '5')
  t.match(await third.json(), {
    error: { code: 'RATE_LIMIT', details: { field: 'stream', constraint: 'at most 2 streams open for this caller' } },
  })
  t.equal((await open('member:bob')).res.status, 200, 'another caller has slots of its own')
  const posing = (await open('member:ada', { 'x-user-id': 'someone-else' })).res
  t.equal(posing.status, 429, "a member's X-User-ID gives it no fresh slots")
  await posing.text()
})

t.test('a service has slots per user it acts for', async (t) => {
  const { open } = await streamingApp(t, { perCaller: 1, total: 0 })
  t.equal((await open('service:gateway', { 'x-user-id': 'u1' })).res.status, 200)
  t.equal((await open('service:gateway', { 'x-user-id': 'u2' })).res.status, 200)
  const again = (await open('service:gateway', { 'x-user-id': 'u1' })).res
  t.equal(again.status, 429)
  await again.text()
})

t.test('past the total, every caller is refused until a stream closes', async (t) => {
  const { open } = await streamingApp(t, { perCaller: 0, total: 2 })
  const first = await open('member:ada')
  t.equal(first.res.status, 200)
  t.equal((await open('member:bob')).res.status, 200)
  const refused = (await open('member:cy')).res
  t.equal(refused.status, 429)
  t.match(((await refused.json()) as ErrorJson).error.details, { constraint: 'at most 2 streams open on this server' })
  first.close()
  // The handler notices the disconnect within a poll; the slot is back once it returns.
  let status = 0
  for (let i = 0; i < 100 && status !== 200; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20))
    const attempt = await open('member:cy')
    status = attempt.res.status
    if (status !== 200) await attempt.res.text()
  }
  t.equal(status, 200, "a closed stream's slot is given back")
})

t.test('refusals take no slot, and a request without a credential is refused before it could take one', async (t) => {
  const { url, open } = await streamingApp(t, { perCaller: 1, total: 2 })
  for (let i = 0; i < 5; i++) t.equal((await fetch(`${url}/events`)).status, 401)
  const ada = await open('member:ada')
  t.equal(ada.res.status, 200)
  for (let i = 0; i < 5; i++) {
    const res = (await open('member:ada')).res
    t.equal(res.status, 429)
    await res.text()
  }
  t.equal((await open('member:bob')).res.status, 200, "ada's refusals left the second slot free")
})
