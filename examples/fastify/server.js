// A tiny Fastify server screened by reflex-screen.js: POST /prompt answers with the prompt's
// personal data replaced, where a real service would pass it on to its model.
//
//   PORT=3000 RATE_LIMIT=60 node server.js
//   curl -s localhost:3000/prompt -H 'content-type: application/json' -d '{"prompt": "Summarise the thread for ada@example.com"}'
import Fastify from 'fastify'
import reflexScreen from './reflex-screen.js'

const app = Fastify()
await app.register(reflexScreen, { perClient: { capacity: Number(process.env.RATE_LIMIT ?? 60), windowMs: 60_000 } })

const body = { type: 'object', required: ['prompt'], properties: { prompt: { type: 'string', maxLength: 100_000 } } }
app.post('/prompt', { schema: { body } }, async (request) => ({
  prompt: request.reflex.redacted_text,
  pii: request.reflex.pii_matches.map((m) => m.type),
}))

await app.listen({ port: Number(process.env.PORT ?? 3000), host: '127.0.0.1' })
console.log(`listening on ${app.server.address().port}`)
