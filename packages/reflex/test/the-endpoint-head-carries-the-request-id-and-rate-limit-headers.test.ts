import t from 'tap'
import { answered, body, endpointWith, show, TENANT } from './fixtures/reflex.js'

const request = body({ text: 'Summarise the quarterly report.', user_id: 'u1' })

t.test('the head is the request id, then the content type and the three ratelimit lines', async (t) => {
  const { endpoint } = endpointWith()
  const cases: Array<[string, number]> = [
    ['req-1', 1],
    ['a b ~!"#', 1000],
    ['x'.repeat(300), 59_001],
  ]
  for (const [i, [id, resetMs]] of cases.entries()) {
    const rateLimit = { limit: 5, remaining: 4 - i, resetMs }
    const reply = answered(endpoint.answer(request, id, { tenant: TENANT, rateLimit }))
    t.equal(
      reply.head?.toString('latin1'),
      `${id}\r\ncontent-type: application/json; charset=utf-8\r\nratelimit-limit: 5\r\nratelimit-remaining: ${4 - i}\r\nratelimit-reset: ${Math.ceil(resetMs / 1000)}`,
      `the head for ${show(id, 20)}: the reset in whole seconds, rounded up`,
    )
  }
})

t.test('without a rate limit the head is the request id and the content type', async (t) => {
  const { ask } = endpointWith()
  t.equal(answered(ask(request, 'req-1')).head?.toString('latin1'), 'req-1\r\ncontent-type: application/json; charset=utf-8')
})

t.test('there is no head for a request id that could break a line or is not ASCII', async (t) => {
  const { ask } = endpointWith()
  for (const id of ['line\nbreak', 'carriage\rreturn', 'crlf\r\nset-cookie: x=1', 'tab\there', 'é', '😀', 'nul\0', 'del\u007f', '']) {
    const reply = answered(ask(request, id))
    t.equal(reply.head, undefined, show(id))
    t.match(reply.body.toString(), /^\{"request_id":/, 'the body is whole')
  }
})
