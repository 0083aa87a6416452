/**
 * Sends a fixed number of `POST /api/v1/check` requests, for `server-instructions.sh`: a count, not
 * a duration, so a run under callgrind can be divided by it. 8 keep-alive connections, each request
 * sent when the last on its connection is answered. Miss bodies are the HTTP bench's text with a
 * counter in its last ten characters (never stored, every check a miss); `--hit` sends the text
 * itself, stored first by a run with `--store` (which sends nothing else). Exits 1 if any answer
 * is not a 200.
 *
 *   node --import @tapjs/typescript/import bench/send-checks.ts --port 18402 --requests 5000 [--hit] [--from 0]
 *   node --import @tapjs/typescript/import bench/send-checks.ts --port 18402 --store
 */
import { Agent, request } from 'node:http'
import { parseArgs } from 'node:util'
import { TEXT_PII, variant } from './texts.js'

const { values: args } = parseArgs({
  options: {
    port: { type: 'string', default: '18402' },
    requests: { type: 'string', default: '5000' },
    hit: { type: 'boolean', default: false },
    // Where the miss counter starts: a second run must not repeat the first one's texts.
    from: { type: 'string', default: '0' },
    store: { type: 'boolean', default: false },
  },
})
const PORT = Number(args.port)
const N = Number(args.requests)
const FROM = Number(args.from)
const CONNECTIONS = 8

const bodyOf = (i: number): string => {
  const text = args.hit ? TEXT_PII : variant(`#${(FROM + i).toString(36).padStart(9, '0')}`)
  return JSON.stringify({ text, user_id: `bench-u-${String(i % 256).padStart(3, '0')}` })
}

if (args.store) {
  // The hit text's cache key, and an entry under it.
  const url = `http://127.0.0.1:${PORT}/api/v1`
  const post = (path: string, body: unknown) =>
    fetch(`${url}/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const { cache_key: key } = (await (await post('check', { text: TEXT_PII })).json()) as { cache_key: string }
  const stored = await post('cache', { key, value: { answer: 'a stored task result' }, ttl_seconds: 3600 })
  if (stored.status !== 201) throw new Error(`storing the hit entry: ${stored.status}`)
  process.exit(0)
}

const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS })
let sent = 0
let failed = 0
await new Promise<void>((resolve, reject) => {
  let answered = 0
  const next = (): void => {
    if (sent >= N) return
    const body = bodyOf(sent++)
    const req = request(
      {
        port: PORT,
        host: '127.0.0.1',
        method: 'POST',
        path: '/api/v1/check',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        if (res.statusCode !== 200) failed++
        res.resume()
        res.on('end', () => {
          if (++answered === N) resolve()
          else next()
        })
      },
    )
    req.on('error', reject)
    req.end(body)
  }
  for (let k = 0; k < CONNECTIONS; k++) next()
})
agent.destroy()
if (failed > 0) {
  console.error(`${failed} of ${N} answers were not 200`)
  process.exit(1)
}
