/**
 * Sends a fixed number of `POST /api/v1/check` requests, for `server-instructions.sh`: a count, not
 * a duration, so a run under callgrind can be divided by it. 8 keep-alive connections, each request
 * sent when the last on its connection is answered. Miss bodies are the HTTP bench's text with a
 * counter in its last ten characters (never stored, every check a miss); `--hit` sends the HTTP
 * bench's hit text (`TEXT_GOAL`), made a hit first by a run with `--store` (which sends nothing
 * else): a task of that goal, run to completion by the orchestrator on `--orchestrator-port`
 * (default `--port` + 1) in the same process (seed-hit.ts). Exits 1 if any answer is not a 200, or
 * if `--store` leaves the text a miss.
 *
 *   node --import @tapjs/typescript/import bench/send-checks.ts --port 18402 --requests 5000 [--hit] [--from 0]
 *   node --import @tapjs/typescript/import bench/send-checks.ts --port 18402 --store
 */
import { Agent, request } from 'node:http'
import { parseArgs } from 'node:util'
import { seedHit } from './seed-hit.js'
import { TEXT_GOAL, variant } from './texts.js'

const { values: args } = parseArgs({
  options: {
    port: { type: 'string', default: '18402' },
    requests: { type: 'string', default: '5000' },
    hit: { type: 'boolean', default: false },
    // Where the miss counter starts: a second run must not repeat the first one's texts.
    from: { type: 'string', default: '0' },
    store: { type: 'boolean', default: false },
    'orchestrator-port': { type: 'string' },
  },
})
const PORT = Number(args.port)
const N = Number(args.requests)
const FROM = Number(args.from)
const CONNECTIONS = 8

const bodyOf = (i: number): string => {
  const text = args.hit ? TEXT_GOAL : variant(`#${(FROM + i).toString(36).padStart(9, '0')}`)
  return JSON.stringify({ text, user_id: `bench-u-${String(i % 256).padStart(3, '0')}` })
}

if (args.store) {
  // Under callgrind the task runs many times slower than natively.
  const orchestratorPort = Number(args['orchestrator-port'] ?? PORT + 1)
  await seedHit({ orchestratorPort, reflexPort: PORT, text: TEXT_GOAL, timeoutMs: 600_000 })
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
