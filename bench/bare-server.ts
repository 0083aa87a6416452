/**
 * The HTTP stack's own ceiling (docs/architecture.md#performance-targets): bare hyper-express
 * routes that read the same 1 KB JSON body the check route gets and answer a small JSON object. Started by bench/http-check.ts in
 * its own process; run by hand with
 *
 *   node --import @tapjs/typescript/import bench/bare-server.ts --port 18101
 *
 * Routes (all POST, all answer `{"ok":true,"chars":<text length>}` unless said otherwise):
 * - `/bare/json`   `await req.json()`: THE ceiling the targets are ratios of.
 * - `/bare/buffer` `JSON.parse((await req.buffer()).toString())`: the public API without json()'s
 *                  per-request TextDecoder.
 * - `/bare/raw`    hyper-express 6.14.8's body parser switched to its pass-through mode in the
 *                  handler's tick, the one uWS chunk decoded in place, then JSON.parse: the fastest
 *                  read found (private API; the same technique src/http/hyper-express-internals.ts uses, which
 *                  also marks the body received first so its reply is not deferred: left out
 *                  here so this row stays comparable with earlier runs).
 * - `/bare/check`  `/bare/raw` + `detector.check(text)` answered as JSON: the native
 *                  check on the wire with none of the service's plumbing (validation, rate limit,
 *                  request id, error handling), to split "check cost" from "plumbing cost".
 * - `GET /bare/ping` a static answer (readiness probe).
 */
import { parseArgs } from 'node:util'
import { Detector } from '@ganglion/reflex'
import type { Request, Response } from 'hyper-express'
import HyperExpress from 'hyper-express'

const { values: args } = parseArgs({ options: { port: { type: 'string', default: '18101' } } })
const port = Number(args.port)

interface CheckBody {
  text: string
}

/** hyper-express 6.14.8 internals driven by readRaw (pinned: docs/architecture.md#stack-and-why). */
interface RequestInternals {
  _body_parser_mode: number
  _body_parser_passthrough: ((chunk: Uint8Array, isLast: boolean) => void) | undefined
  _body_parser_flush_buffered(): void
}

/** Calls `done` with the body text; must run in the handler's own tick. Content-Length bodies only. */
function readRaw(req: Request, done: (text: string) => void): void {
  const length = Number(req.headers['content-length'])
  if (!(length > 0)) {
    done('')
    return
  }
  const internals = req as unknown as RequestInternals
  let buffer: Buffer | undefined
  let offset = 0
  internals._body_parser_mode = 1 // pass-through
  internals._body_parser_passthrough = (chunk, isLast) => {
    if (isLast && offset === 0) {
      // The whole body in one uWS chunk: decode it in place (uWS reuses that memory afterwards).
      done(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8'))
      return
    }
    buffer ??= Buffer.allocUnsafe(length)
    buffer.set(chunk, offset)
    offset += chunk.byteLength
    if (isLast) done(buffer.toString('utf8', 0, offset))
  }
  internals._body_parser_flush_buffered()
}

const detector = new Detector()
const server = new HyperExpress.Server({ max_body_length: 1024 * 1024 })

server.post('/bare/json', async (req: Request, res: Response) => {
  const body = (await req.json()) as CheckBody
  res.json({ ok: true, chars: body.text.length })
})

server.post('/bare/buffer', async (req: Request, res: Response) => {
  const body = JSON.parse((await req.buffer()).toString('utf8')) as CheckBody
  res.json({ ok: true, chars: body.text.length })
})

server.post('/bare/raw', (req: Request, res: Response) => {
  readRaw(req, (text) => {
    const body = JSON.parse(text) as CheckBody
    res.json({ ok: true, chars: body.text.length })
  })
})

server.post('/bare/check', (req: Request, res: Response) => {
  readRaw(req, (text) => {
    const body = JSON.parse(text) as CheckBody
    res.json(detector.check(body.text))
  })
})

server.get('/bare/ping', (_req: Request, res: Response) => {
  res.json({ ok: true })
})

await server.listen(port, '127.0.0.1')
console.log(`bare-server listening on 127.0.0.1:${port} (pid ${process.pid})`)

const stop = (): void => {
  server.close()
  process.exit(0)
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
