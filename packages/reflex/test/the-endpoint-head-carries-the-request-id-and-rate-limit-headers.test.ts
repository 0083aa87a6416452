import t from 'tap'
import { answered, body, endpointWith, show } from './fixtures/reflex.js'

const request = body({ text: 'Summarise the quarterly report.', user_id: 'u1' })

t.test('the head is the request id, then the content type and the three ratelimit lines', async (t) => {
  const { endpoint } = endpointWith({ perUser: { capacity: 5, windowMs: 60_000 } })
  for (const [i, id] of ['req-1', 'a b ~!"#', 'x'.repeat(300)].entries()) {
    const reply = answered(endpoint.answer(request, id))
    const d = reply.decision
    t.match(d, { allowed: true, limit: 5, remaining: 4 - i, retryAfterMs: 0 })
    t.equal(
      reply.head?.toString('latin1'),
      `${id}\r\ncontent-type: application/json; charset=utf-8\r\nratelimit-limit: 5\r\nratelimit-remaining: ${4 - i}\r\nratelimit-reset: ${Math.ceil(d.resetMs / 1000)}`,
      `the head for ${show(id, 20)}`,
    )
    t.ok(Math.ceil(d.resetMs / 1000) >= 12 * (i + 1) - 1, 'the reset is in whole seconds, rounded up')
  }
})

t.test('there is no head for a request id that could break a line or is not ASCII', async (t) => {
  const { endpoint } = endpointWith()
  for (const id of ['line\nbreak', 'carriage\rreturn', 'crlf\r\nset-cookie: x=1', 'tab\there', 'é', '😀', 'nul\0', 'del\u007f', '']) {
    const reply = answered(endpoint.answer(request, id))
    t.equal(reply.head, undefined, show(id))
    t.match(reply.body.toString(), /^\{"request_id":/, 'the body is whole')
  }
})
