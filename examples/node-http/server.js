// A node:http service that screens each prompt before passing it on: 429 past the client's rate,
// 403 with the matches for a prompt injection, else the prompt with its personal data replaced.
//
//   PORT=3000 RATE_LIMIT=60 node server.js
//   curl -s localhost:3000/prompt -d '{"prompt": "Summarise the thread for ada@example.com"}'
import { createServer } from 'node:http'
import { Detector, RateLimiter } from '@ganglion/reflex'

const port = Number(process.env.PORT ?? 3000)
const perClient = { capacity: Number(process.env.RATE_LIMIT ?? 60), windowMs: 60_000 } // requests a minute
const maxBodyBytes = 1 << 20

const detector = new Detector() // blocks at severity high
const limiter = new RateLimiter()

const server = createServer(async (req, res) => {
  if (req.method !== 'POST' || req.url !== '/prompt') return send(res, 404, { error: 'POST /prompt' })

  const decision = limiter.take(`ip:${req.socket.remoteAddress}`, perClient)
  if (!decision.allowed) {
    res.setHeader('retry-after', Math.ceil(decision.retryAfterMs / 1000))
    return send(res, 429, { error: 'too many requests' })
  }

  let prompt
  try {
    prompt = JSON.parse(await readBody(req))?.prompt
  } catch (err) {
    return send(res, err.status ?? 400, { error: err.status ? err.message : 'the body is not JSON' })
  }
  if (typeof prompt !== 'string') return send(res, 400, { error: 'the body must be {"prompt": "…"}' })

  // A few µs for a KB on this thread; for prompts of many KB, `await detector.checkAsync(prompt)`.
  const result = detector.check(prompt)
  if (!result.allowed) {
    return send(res, 403, { error: 'prompt injection', severity: result.severity, injection_matches: result.injection_matches })
  }
  // A real service forwards the redacted prompt to its model here; this one echoes it.
  send(res, 200, { prompt: result.redacted_text, pii: result.pii_matches.map((m) => m.type) })
})

server.listen(port, '127.0.0.1', () => console.log(`listening on ${server.address().port}`))

async function readBody(req) {
  const chunks = []
  let size = 0
  for await (const chunk of req) {
    size += chunk.length
    if (size > maxBodyBytes) throw Object.assign(new Error('the body is larger than 1 MiB'), { status: 413 })
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
}
