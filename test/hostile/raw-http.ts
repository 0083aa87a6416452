// One request written as bytes on a fresh TCP connection, for requests no HTTP client will send:
// what came back (a complete response, some bytes, or none) and when the server closed.
import net from 'node:net'

export interface RawResponse {
  status: number
  /** Header names lower-cased; a repeated header keeps its last value. */
  headers: Record<string, string>
  body: string
}

export interface Exchange {
  /** The response once its head and its Content-Length of body have arrived; undefined otherwise. */
  response: RawResponse | undefined
  /** Every byte the server sent. */
  received: number
  /** Milliseconds from connecting to the server's close; undefined if it was still open at the deadline. */
  closedAfterMs: number | undefined
}

/**
 * Writes `request` to `host:port` and waits until the server closes the connection, or until a
 * complete response arrived when `untilClose` is false, or until `deadlineMs` passed.
 */
export function exchange(port: number, request: string, opts: { untilClose: boolean; deadlineMs: number }): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const chunks: Buffer[] = []
    let response: RawResponse | undefined
    let done = false
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request, 'latin1'))
    const finish = (closed: boolean) => {
      if (done) return
      done = true
      clearTimeout(deadline)
      socket.destroy()
      const received = chunks.reduce((n, c) => n + c.byteLength, 0)
      resolve({ response, received, closedAfterMs: closed ? Math.round(performance.now() - started) : undefined })
    }
    const deadline = setTimeout(() => finish(false), opts.deadlineMs)
    socket.on('data', (chunk) => {
      chunks.push(chunk)
      response ??= parse(Buffer.concat(chunks).toString('latin1'))
      if (response !== undefined && !opts.untilClose) finish(false)
    })
    // The server may reset a connection it closes with bytes still unread: a close all the same.
    socket.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' ? finish(true) : reject(err)))
    socket.on('close', () => finish(true))
  })
}

/** The response in `text` if its head and its whole Content-Length body are there. */
function parse(text: string): RawResponse | undefined {
  const headEnd = text.indexOf('\r\n\r\n')
  if (headEnd === -1) return undefined
  const [statusLine = '', ...lines] = text.slice(0, headEnd).split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  const length = Number(headers['content-length'])
  if (!Number.isSafeInteger(length)) return undefined
  const body = text.slice(headEnd + 4)
  if (body.length < length) return undefined
  return { status: Number(statusLine.split(' ')[1]), headers, body: body.slice(0, length) }
}
