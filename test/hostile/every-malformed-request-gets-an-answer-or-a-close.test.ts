// A fuzz of both services found requests that got no answer: an unknown method, a header name with
// `_` or `.`, and a Content-Length over the body limit, whose 413 wrote its status line and headers
// and then waited for a body that never came. Each is sent here as raw bytes. What the HTTP layer
// sees is answered whole with the error object; what uWebSockets' parser refuses before the HTTP
// layer sees it ends in a closed connection without a byte, at once or after uWS's idle timeout,
// while both services go on answering (docs/security.md, "Malformed requests at the HTTP layer").
import type { Test } from 'tap'
import { type Exchange, exchange, type RawResponse } from './raw-http.js'
import { type Hosts, onEachBackend } from './services.js'

/** A connection closed at once is closed within this. */
const PROMPTLY_MS = 2_000
/** uWS closes an HTTP connection that sent nothing it could use after 10 s, checked every 4 s. */
const IDLE_TIMEOUT_BOUND_MS = 15_000

const portOf = (base: string) => Number(new URL(base).port)

function request(method: string, path: string, headers: string[] = [], body = ''): string {
  return `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n${body}`
}

function errorOf(response: RawResponse): { code: string; details: Record<string, string>; request_id: string } {
  return (JSON.parse(response.body) as { error: { code: string; details: Record<string, string>; request_id: string } }).error
}

/** A complete response: its Content-Length of body arrived, and the body is the error object. */
function assertAnswered(t: Test, got: Exchange, status: number, code: string, what: string): RawResponse | undefined {
  const response = got.response
  if (!t.ok(response, `${what}: a complete response arrived`) || response === undefined) return undefined
  t.equal(response.status, status, `${what}: status`)
  t.equal(errorOf(response).code, code, `${what}: the error object`)
  t.equal(response.headers['x-request-id'], errorOf(response).request_id, `${what}: the request id`)
  return response
}

/** A body over the limit gets a complete 413, then the connection is closed. */
async function bodyOverTheLimit(t: Test, hosts: Hosts): Promise<void> {
  const overLimit = ['Content-Type: application/json', 'Content-Length: 99999999']
  // One chunk past the default limit of 1 MiB, and no last chunk: the body never ends by itself.
  const chunked = ['Content-Type: application/json', 'Transfer-Encoding: chunked']
  const size = 1024 * 1024 + 1
  const pastLimit = `${size.toString(16)}\r\n${'a'.repeat(size)}\r\n`
  const cases: Array<[what: string, port: number, text: string]> = [
    ['a task, head only', portOf(hosts.orchestrator), request('POST', '/api/v1/tasks', overLimit)],
    ['a task, part of the body', portOf(hosts.orchestrator), request('POST', '/api/v1/tasks', overLimit, '{"goal":"aaaa')],
    ['a check, head only', portOf(hosts.reflex), request('POST', '/api/v1/check', overLimit)],
    ['a chunked task past the limit', portOf(hosts.orchestrator), request('POST', '/api/v1/tasks', chunked, pastLimit)],
  ]
  for (const [what, port, text] of cases) {
    const got = await exchange(port, text, { untilClose: true, deadlineMs: IDLE_TIMEOUT_BOUND_MS })
    const response = assertAnswered(t, got, 413, 'PAYLOAD_TOO_LARGE', what)
    t.match(response && errorOf(response).details, { field: 'body', constraint: /^must NOT be larger than \d+ bytes$/ })
    t.equal(response?.headers['content-length'], String(response?.body.length), `${what}: Content-Length`)
    t.equal(response?.headers.connection?.toLowerCase(), 'close', `${what}: says it closes`)
    t.ok(got.closedAfterMs !== undefined && got.closedAfterMs < PROMPTLY_MS, `${what}: closed promptly (${got.closedAfterMs} ms)`)
  }
}

/** What reaches the HTTP layer is answered with the error object. */
async function answeredByTheHttpLayer(t: Test, hosts: Hosts): Promise<void> {
  const orchestrator = portOf(hosts.orchestrator)
  const reflex = portOf(hosts.reflex)
  const longId = 'a'.repeat(10 * 1024)
  const answered = (port: number, text: string) => exchange(port, text, { untilClose: false, deadlineMs: PROMPTLY_MS })

  for (const [port, path] of [
    [orchestrator, '/api/v1/health'],
    [reflex, '/api/v1/check'],
  ] as const) {
    const response = assertAnswered(t, await answered(port, request('TRACE', path)), 405, 'METHOD_NOT_ALLOWED', `TRACE ${path}`)
    t.ok(response?.headers.allow, `TRACE ${path}: Allow names the methods`)
  }

  const task = assertAnswered(
    t,
    await answered(orchestrator, request('GET', `/api/v1/tasks/${longId}`)),
    404,
    'NOT_FOUND',
    'a 10 KB task id',
  )
  t.match(task && errorOf(task).details, { field: 'task_id' })
  const key = assertAnswered(t, await answered(reflex, request('GET', `/api/v1/cache/${longId}`)), 400, 'VALIDATION_ERROR', 'a 10 KB key')
  t.match(key && errorOf(key).details, { field: 'key', constraint: 'must be 1 to 512 characters' })
}

/** A method uWS does not know, or no Host, closes the connection at once, without a byte. */
async function closedAtOnce(t: Test, hosts: Hosts): Promise<void> {
  const refused: Array<[what: string, text: string]> = [
    ...['QUERY', 'PROPFIND', 'FOO', 'get'].map((method): [string, string] => [method, request(method, '/api/v1/health')]),
    ['an HTTP/1.1 request without Host', 'GET /api/v1/health HTTP/1.1\r\nAccept: */*\r\n\r\n'],
  ]
  for (const port of [portOf(hosts.orchestrator), portOf(hosts.reflex)]) {
    for (const [what, text] of refused) {
      const got = await exchange(port, text, { untilClose: true, deadlineMs: IDLE_TIMEOUT_BOUND_MS })
      t.equal(got.received, 0, `${what} on ${port}: nothing sent`)
      t.ok(got.closedAfterMs !== undefined && got.closedAfterMs < PROMPTLY_MS, `${what}: closed at once (${got.closedAfterMs} ms)`)
    }
  }
}

/** A head uWS cannot parse is closed on its idle timeout while both services answer. */
async function unparsableHeads(t: Test, hosts: Hosts): Promise<void> {
  const heads: Array<[what: string, text: string]> = [
    ['a header name with _', request('GET', '/api/v1/health', ['a_b: x'])],
    ['a header name with .', request('GET', '/api/v1/health', ['a.b: x'])],
    [
      '200 headers',
      request(
        'GET',
        '/api/v1/health',
        Array.from({ length: 200 }, (_, i) => `x-h${i}: v`),
      ),
    ],
    ['a header value with a bare CR', request('GET', '/api/v1/health', ['x-a: b\rc'])],
    ['an HTTP/1.0 request line', 'GET /api/v1/health HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n'],
    ['a request line and no header at all', 'GET /api/v1/health HTTP/1.1\r\n\r\n'],
  ]
  const ports = [portOf(hosts.orchestrator), portOf(hosts.reflex)]
  const held = Promise.all(
    ports.flatMap((port) =>
      heads.map(async ([what, text]) => {
        const got = await exchange(port, text, { untilClose: true, deadlineMs: IDLE_TIMEOUT_BOUND_MS })
        return { what: `${what} on ${port}`, got }
      }),
    ),
  )

  // Meanwhile every other request is answered as usual: the held connections cost no event-loop time.
  let slowest = 0
  let answers = 0
  const until = performance.now() + 6_000
  while (performance.now() < until) {
    for (const base of [hosts.orchestrator, hosts.reflex]) {
      const asked = performance.now()
      const res = await fetch(`${base}/api/v1/health`)
      slowest = Math.max(slowest, performance.now() - asked)
      if (res.status === 200) answers++
      await res.arrayBuffer()
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  t.ok(answers > 0, `health answered ${answers} times meanwhile`)
  t.ok(slowest < 1_000, `each within a second (slowest ${Math.round(slowest)} ms)`)

  for (const { what, got } of await held) {
    t.equal(got.received, 0, `${what}: nothing sent`)
    t.ok(got.closedAfterMs !== undefined, `${what}: closed within ${IDLE_TIMEOUT_BOUND_MS} ms (${got.closedAfterMs} ms)`)
  }
}

onEachBackend('every malformed request gets an answer or a closed connection', async (t, hosts) => {
  await t.test('a body over the limit gets a complete 413, then the connection is closed', (t) => bodyOverTheLimit(t, hosts))
  await t.test('what reaches the HTTP layer is answered with the error object', (t) => answeredByTheHttpLayer(t, hosts))
  await t.test('a method uWS does not know, or no Host, closes the connection at once, without a byte', (t) => closedAtOnce(t, hosts))
  await t.test('a head uWS cannot parse is closed on its idle timeout while both services answer', (t) => unparsableHeads(t, hosts))
})
