// A Fastify plugin that screens each request's `body.prompt` with @ganglion/reflex: 429 past the
// client's rate (onRequest, before the body is read), 403 with the matches for a prompt injection
// (preHandler, after the route's schema has checked the body); else the check's result is
// `request.reflex`, and its `redacted_text` the prompt to pass on.
//
//   await app.register(reflexScreen, { blockLevel: 'high', perClient: { capacity: 60, windowMs: 60_000 } })
import { Detector, RateLimiter } from '@ganglion/reflex'

export default async function reflexScreen(app, { blockLevel = 'high', perClient = { capacity: 60, windowMs: 60_000 } }) {
  const detector = new Detector({ blockLevel })
  const limiter = new RateLimiter()
  app.decorateRequest('reflex', null)

  app.addHook('onRequest', async (request, reply) => {
    const decision = limiter.take(`ip:${request.ip}`, perClient)
    if (!decision.allowed) {
      return reply
        .code(429)
        .header('retry-after', Math.ceil(decision.retryAfterMs / 1000))
        .send({ error: 'too many requests' })
    }
  })

  app.addHook('preHandler', async (request, reply) => {
    const prompt = request.body?.prompt
    if (typeof prompt !== 'string') return // a route that takes no prompt: nothing to screen
    const result = detector.check(prompt)
    if (!result.allowed) {
      return reply.code(403).send({ error: 'prompt injection', severity: result.severity, injection_matches: result.injection_matches })
    }
    request.reflex = result
  })
}

// What fastify-plugin does: the hooks and the decorator reach the routes of the scope that
// registers the plugin, instead of staying in a scope of their own.
reflexScreen[Symbol.for('skip-override')] = true
