// A local OpenAI-compatible chat server standing in for a model: by default a plan request
// (structured output named `plan`) is answered with a one-step plan that needs no model (the
// executor computes 6*7), anything else with a short text; `reply` chooses the content instead.
// Every request is recorded with its headers and its body as sent.
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

interface Teardown {
  teardown(fn: () => unknown): void
}

export interface ModelRequest {
  path: string
  headers: IncomingHttpHeaders
  body: Record<string, any>
  /** The body's text as the client sent it. */
  raw: string
}

/** The reply's content for a request body. */
export type StandInReply = (body: Record<string, any>) => string

const PLAN = {
  steps: [{ step_id: 's1', arm: 'executor', tool: 'javascript', action: 'Compute the product.', depends_on: [], input: { code: '6*7' } }],
}

const planOrText: StandInReply = (body) =>
  body.response_format?.json_schema?.name === 'plan' ? JSON.stringify(PLAN) : 'The product is 42.'

export async function modelStandIn(t: Teardown, reply = planOrText): Promise<{ url: string; requests: ModelRequest[] }> {
  const requests: ModelRequest[] = []
  const server = createServer((req, res) => {
    let raw = ''
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')))
    req.on('end', () => {
      const body = raw === '' ? {} : JSON.parse(raw)
      requests.push({ path: req.url ?? '', headers: req.headers, body, raw })
      const content = reply(body)
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          id: 'c1',
          object: 'chat.completion',
          model: 'stand-in',
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 12, completion_tokens: 7 },
        }),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    server.closeAllConnections()
    server.close()
  })
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests }
}
