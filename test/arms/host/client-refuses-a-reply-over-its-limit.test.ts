import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { HttpArmClient } from '../../../src/arms/arm-client.js'
import { StepError } from '../../../src/step-errors.js'
import { request } from './servers.js'

/** A node server whose every answer is written by `answer`; counts the bytes it managed to send. */
async function serving(t: Test, answer: (res: ServerResponse) => void): Promise<string> {
  const server = createServer((_req, res) => answer(res))
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  t.teardown(() => {
    server.closeAllConnections()
    return new Promise((r) => server.close(r))
  })
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

async function failure(client: HttpArmClient): Promise<StepError> {
  const err = await client.execute(request({ tool: 'echo' }), 'token', new AbortController().signal).catch((e: unknown) => e)
  if (!(err instanceof StepError)) throw new Error(`expected a StepError, got ${String(err)}`)
  return err
}

const LIMIT = 4096
const provenance = {
  arm: 'echo',
  tool: 'echo',
  started_at: '2026-11-24T00:00:00Z',
  completed_at: '2026-11-24T00:00:01Z',
  duration_ms: 1000,
  tokens: { prompt: 0, completion: 0, total: 0 },
  model: null,
  token_id: 'jti-1',
}
const response = (text: string) => JSON.stringify({ status: 'completed', output: { text }, events: [], provenance })

t.test('a reply under the limit is read whole', async (t) => {
  const body = response('x'.repeat(LIMIT - 600))
  const url = await serving(t, (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body))
  const reply = await new HttpArmClient(url, { replyLimitBytes: LIMIT }).execute(
    request({ tool: 'echo' }),
    'token',
    new AbortController().signal,
  )
  t.equal(reply.status, 'completed')
  if (reply.status === 'completed') t.equal((reply.output as { text: string }).text.length, LIMIT - 600)
})

t.test('a declared Content-Length over the limit is refused without reading the body', async (t) => {
  const body = response('x'.repeat(LIMIT * 4))
  const url = await serving(t, (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body))
  const err = await failure(new HttpArmClient(url, { replyLimitBytes: LIMIT }))
  t.match(err, { code: 'ARM_REPLY_TOO_LARGE', retryable: false })
  t.match(err.message, /\/execute with more than 4096 bytes/)
})

t.test('a chunked reply that never ends is cut at the limit', async (t) => {
  let sent = 0
  let stopped = false
  const url = await serving(t, (res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    const chunk = Buffer.alloc(1024, 0x78)
    const more = (): void => {
      // an endless body: keeps writing until the client goes away
      while (!stopped && !res.destroyed) {
        sent += chunk.length
        if (!res.write(chunk)) return void res.once('drain', more)
      }
    }
    res.on('close', () => (stopped = true))
    more()
  })
  const err = await failure(new HttpArmClient(url, { replyLimitBytes: LIMIT }))
  t.match(err, { code: 'ARM_REPLY_TOO_LARGE', retryable: false })
  await new Promise((r) => setTimeout(r, 100))
  t.ok(stopped, 'the client closed the connection instead of reading on')
  t.ok(sent < 64 * 1024 * 1024, `the server stopped after ${sent} bytes`)
})
