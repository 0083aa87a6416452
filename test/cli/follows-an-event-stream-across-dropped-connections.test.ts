// The CLI's event-stream client against a local server that drops connections, sends CRLF lines,
// an endless line, or nothing at all: it resumes after the last event it got, and a stream that
// never gets anywhere ends as unreachable instead of stalling.
import { once } from 'node:events'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { ApiClient, CliError, type SseEvent } from '../../src/cli/client.js'

type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void

async function server(t: { teardown(fn: () => unknown): void }, handler: Handler): Promise<{ url: string; seen: IncomingMessage[] }> {
  const seen: IncomingMessage[] = []
  const s = createServer((req, res) => {
    seen.push(req)
    handler(req, res, seen.length)
  })
  s.listen(0, '127.0.0.1')
  await once(s, 'listening')
  t.teardown(() => {
    s.closeAllConnections()
    s.close()
  })
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, seen }
}

function event(id: number, type: string, data: Record<string, unknown>, eol = '\n'): string {
  return `id: ${id}${eol}event: ${type}${eol}data: ${JSON.stringify(data)}${eol}${eol}`
}

const STREAM = { 'content-type': 'text/event-stream' }

t.test('a dropped stream is resumed after the last event received', async (t) => {
  const { url, seen } = await server(t, (_req, res, n) => {
    res.writeHead(200, STREAM)
    if (n === 1) {
      res.write('retry: 10\n\n')
      res.write(event(1, 'task.created', { status: 'queued' }))
      res.write(event(2, 'task.status', { status: 'running' }), () => res.destroy())
      return
    }
    // CRLF line ends, a comment, and data split over two lines are all the same stream.
    res.write(': keep-alive\r\n\r\n')
    res.end(event(3, 'task.status', { status: 'completed' }, '\r\n'))
  })
  const events: SseEvent[] = []
  const status = await new ApiClient({ url, key: 'k1' }).follow('t1', (e) => events.push(e), new AbortController().signal)
  t.equal(status, 'completed')
  t.same(
    events.map((e) => [e.id, e.event, e.data.status]),
    [
      [1, 'task.created', 'queued'],
      [2, 'task.status', 'running'],
      [3, 'task.status', 'completed'],
    ],
  )
  t.equal(seen[0]!.headers['last-event-id'], undefined, 'the first request starts at the beginning')
  t.equal(seen[1]!.headers['last-event-id'], '2', 'the second resumes after event 2')
  t.equal(seen[1]!.headers.authorization, 'Bearer k1', 'with the credential')
  t.equal(seen[0]!.url, '/api/v1/tasks/t1/events')
})

t.test('an error object ends the follow with its code; a gateway error is retried', async (t) => {
  const { url } = await server(t, (_req, res, n) => {
    if (n === 1) {
      res.writeHead(503).end('upstream restarting')
      return
    }
    res.writeHead(404, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'No task with id "t1"', details: {} } }))
  })
  const err = await new ApiClient({ url })
    .follow('t1', () => {}, new AbortController().signal)
    .then(
      () => undefined,
      (e: unknown) => e,
    )
  t.ok(err instanceof CliError)
  t.equal((err as CliError).message, 'NOT_FOUND: No task with id "t1"')
  t.equal((err as CliError).exitCode, 1)
})

t.test('an endless line, a silent stream and a closed port end as unreachable, not a stall', async (t) => {
  const endless = await server(t, (_req, res) => {
    res.writeHead(200, STREAM)
    const chunk = 'x'.repeat(64 * 1024)
    const pump = () => {
      while (!res.destroyed && res.write(`data: ${chunk}`));
      if (!res.destroyed) res.once('drain', pump)
    }
    pump()
  })
  const silent = await server(t, (_req, res) => {
    res.writeHead(200, STREAM)
    res.write('retry: 10\n\n')
  })
  for (const [name, url] of [
    ['endless line', endless.url],
    ['silent stream', silent.url],
    ['closed port', 'http://127.0.0.1:9'],
  ] as const) {
    const started = Date.now()
    const err = await new ApiClient({ url, idleMs: 300, maxReconnects: 2 })
      .follow('t1', () => {}, new AbortController().signal)
      .then(
        () => undefined,
        (e: unknown) => e,
      )
    t.ok(err instanceof CliError, name)
    t.equal((err as CliError).exitCode, 7, `${name}: the unreachable code`)
    t.ok(Date.now() - started < 20_000, `${name}: in bounded time`)
  }
})

t.test('aborting stops following at once', async (t) => {
  const { url } = await server(t, (_req, res) => {
    res.writeHead(200, STREAM)
    res.write(event(1, 'task.created', { status: 'queued' }))
  })
  const stop = new AbortController()
  const status = await new ApiClient({ url }).follow('t1', () => stop.abort(), stop.signal)
  t.equal(status, undefined)
})
