/**
 * An open-loop, constant-rate HTTP/1.1 load generator with microsecond latencies, for the
 * "latency at half the ceiling" figures. Why not only autocannon `-R`: autocannon's rate limit lets
 * each connection send its whole per-second quota back to back and then idle until the next second
 * (lib/httpClient.js, `reqsMadeThisSecond`), so at "half load" the server actually sees bursts at
 * full speed; and its latency histogram has a lowest discernible value of 1 ms, too coarse for a
 * P50 < 1 ms target. Here request i is due at t0 + i/rate; a setImmediate loop sends every due
 * request on an idle keep-alive connection. Two latencies are recorded per request:
 * - `service`: from the write to the last byte of the response (what autocannon reports);
 * - `intended`: from the due time, so time spent queued in the generator (no idle connection, a
 *   late loop turn) counts too; the coordinated-omission-free figure, as wrk2 reports it.
 *
 * ```ts
 * const r = await runOpenLoop({ host: '127.0.0.1', port: 8001, path: '/api/v1/check', rate: 5000,
 *   durationS: 10, connections: 32, bodies: ['{"text":"a"}', '{"text":"b"}'] })
 * r.service.p50 // ms
 * ```
 */
import { connect, type Socket } from 'node:net'

export interface OpenLoopOptions {
  host: string
  port: number
  path: string
  /** Requests per second. */
  rate: number
  durationS: number
  connections: number
  /** JSON bodies, pre-encoded once and sent in turn (request i sends bodies[i % length]). */
  bodies: string[]
  /** Headers sent with every request besides Host, Content-Type and Content-Length. */
  headers?: Record<string, string>
  /** A response with another status counts as an error (default 200). */
  expectStatus?: number
}

export interface Percentiles {
  p50: number
  p95: number
  p99: number
  max: number
  mean: number
}

export interface OpenLoopResult {
  offeredRate: number
  sent: number
  completed: number
  errors: number
  non2xx: number
  achievedRate: number
  /** Milliseconds. */
  service: Percentiles
  intended: Percentiles
  /** Most requests waiting for a free connection at once. */
  maxQueued: number
}

interface Conn {
  socket: Socket
  busy: boolean
  due: number
  sentAt: number
  buf: Buffer
}

const HEADER_END = Buffer.from('\r\n\r\n')
// uWS (hence hyper-express) always spells it this way; a chunked answer has none.
const CONTENT_LENGTH = Buffer.from('\r\nContent-Length:')

export function percentiles(values: Float64Array | number[]): Percentiles {
  const s = Float64Array.from(values).sort()
  const at = (q: number): number => (s.length ? (s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] ?? NaN) : NaN)
  let sum = 0
  for (const v of s) sum += v
  return {
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    max: s.length ? (s[s.length - 1] ?? NaN) : NaN,
    mean: s.length ? sum / s.length : NaN,
  }
}

const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6

export async function runOpenLoop(opts: OpenLoopOptions): Promise<OpenLoopResult> {
  const expect = opts.expectStatus ?? 200
  const total = Math.round(opts.rate * opts.durationS)
  const service = new Float64Array(total)
  const intended = new Float64Array(total)
  let completed = 0
  let errors = 0
  let non2xx = 0
  let sent = 0
  let maxQueued = 0
  const extra = Object.entries(opts.headers ?? {})
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')
  const head = `POST ${opts.path} HTTP/1.1\r\nHost: ${opts.host}:${opts.port}\r\n${extra}Content-Type: application/json\r\nContent-Length: `
  // Pre-encoded so the generator's own cost per request is a write and a parse.
  const requests = opts.bodies.map((b) => Buffer.from(`${head}${Buffer.byteLength(b)}\r\n\r\n${b}`))

  const conns: Conn[] = await Promise.all(
    Array.from(
      { length: opts.connections },
      () =>
        new Promise<Conn>((resolve, reject) => {
          const socket = connect({ host: opts.host, port: opts.port, noDelay: true })
          const conn: Conn = { socket, busy: false, due: 0, sentAt: 0, buf: Buffer.alloc(0) }
          socket.once('connect', () => resolve(conn))
          socket.once('error', reject)
        }),
    ),
  )
  const idle: Conn[] = [...conns]

  let finish: () => void = () => {}
  const done = new Promise<void>((resolve) => {
    finish = resolve
  })

  const onResponse = (conn: Conn, status: number): void => {
    const t = nowMs()
    if (completed < total) {
      service[completed] = t - conn.sentAt
      intended[completed] = t - conn.due
    }
    completed++
    if (status !== expect) non2xx++
    conn.busy = false
    idle.push(conn)
    if (completed + errors >= total) finish()
  }

  for (const conn of conns) {
    conn.socket.on('data', (chunk: Buffer) => {
      conn.buf = conn.buf.length ? Buffer.concat([conn.buf, chunk]) : chunk
      for (;;) {
        const end = conn.buf.indexOf(HEADER_END)
        if (end === -1) return
        const status = (conn.buf[9] ?? 0) * 100 + (conn.buf[10] ?? 0) * 10 + (conn.buf[11] ?? 0) - 5328 // '000' = 5328
        const cl = conn.buf.indexOf(CONTENT_LENGTH)
        let size: number
        if (cl !== -1 && cl < end) {
          let n = 0
          for (let k = cl + CONTENT_LENGTH.length; k < end; k++) {
            const c = conn.buf[k] ?? 0
            if (c === 32) continue
            if (c < 48 || c > 57) break
            n = n * 10 + c - 48
          }
          size = end + 4 + n
        } else {
          // Chunked: this generator only needs to find the terminating zero-size chunk.
          const term = conn.buf.indexOf('\r\n0\r\n\r\n', end)
          if (term === -1) return
          size = term + 7
        }
        if (conn.buf.length < size) return
        conn.buf = conn.buf.subarray(size)
        onResponse(conn, status)
      }
    })
    conn.socket.on('error', () => {
      errors++
      if (completed + errors >= total) finish()
    })
  }

  const t0 = nowMs() + 5
  const step = 1000 / opts.rate
  const loop = (): void => {
    const now = nowMs()
    while (sent < total && t0 + sent * step <= now) {
      const conn = idle.pop()
      if (!conn) break
      conn.busy = true
      conn.due = t0 + sent * step
      conn.sentAt = nowMs()
      conn.socket.write(requests[sent % requests.length] as Buffer)
      sent++
    }
    if (sent < total) {
      const queued = Math.floor((now - t0) / step) - sent
      if (queued > maxQueued) maxQueued = queued
      setImmediate(loop)
    }
  }
  setImmediate(loop)

  const deadline = setTimeout(finish, opts.durationS * 1000 + 10_000) // never hang the bench
  await done
  clearTimeout(deadline)
  const elapsed = nowMs() - t0
  for (const conn of conns) conn.socket.destroy()
  const n = Math.min(completed, total)
  return {
    offeredRate: opts.rate,
    sent,
    completed,
    errors,
    non2xx,
    achievedRate: (completed / elapsed) * 1000,
    service: percentiles(service.subarray(0, n)),
    intended: percentiles(intended.subarray(0, n)),
    maxQueued,
  }
}
