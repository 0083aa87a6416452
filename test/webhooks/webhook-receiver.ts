// A webhook receiver on node:http that verifies every delivery with the recipe of
// docs/webhooks.md ("Verifying a delivery") and answers from a script of status codes.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

interface Teardown {
  teardown(fn: () => unknown): void
}

/** The documented recipe: recompute, compare in constant time, refuse timestamps older than 5 minutes. */
export function verifySignature(secret: string, rawBody: string, header: string, nowMs = Date.now(), toleranceSeconds = 300): boolean {
  const fields = new Map(header.split(',').map((part) => [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1)]))
  const timestamp = Number(fields.get('t'))
  if (!Number.isInteger(timestamp) || Math.abs(nowMs / 1000 - timestamp) > toleranceSeconds) return false
  const expected = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest()
  const given = Buffer.from(fields.get('v1') ?? '', 'hex')
  return given.length === expected.length && timingSafeEqual(given, expected)
}

export interface Received {
  headers: IncomingHttpHeaders
  body: string
  at: number
  /** What the receiver answered. */
  status: number
}

export interface Receiver {
  url: string
  received: Received[]
  /** Resolves once `n` deliveries have come (or rejects after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>
}

/** Answers the i-th request with `statuses[i]`, and the last status for every request after them. */
export async function startReceiver(t: Teardown, statuses: readonly number[] = [200]): Promise<Receiver> {
  const received: Received[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const status = statuses[Math.min(received.length, statuses.length - 1)] ?? 200
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now(), status })
      res.writeHead(status, { 'content-type': 'text/plain' }).end('x'.repeat(100_000))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  server.unref()
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    async waitFor(n, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs
      while (received.length < n) {
        if (Date.now() > until) throw new Error(`${received.length} of ${n} deliveries came within ${timeoutMs} ms`)
        await new Promise((r) => setTimeout(r, 25))
      }
      return received
    },
  }
}
