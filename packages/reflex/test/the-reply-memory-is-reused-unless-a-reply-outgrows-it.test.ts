import t from 'tap'
import { answered, body, endpointWith } from './fixtures/reflex.js'

const short = body({ text: 'Summarise the quarterly report.', user_id: 'u1' })

t.test('a reply larger than replyRoom comes back whole, in a Buffer of its own', async (t) => {
  const { detector, ask } = endpointWith({ replyRoom: 64 })
  const reply = answered(ask(short, 'req-1'))
  t.equal(reply.reused, false)
  t.ok(Buffer.isBuffer(reply.body))
  const parsed = JSON.parse(reply.body.toString())
  t.equal(parsed.request_id, 'req-1')
  t.equal(parsed.redacted_text, 'Summarise the quarterly report.')
  t.type(parsed.processing_time_ms, 'number')
  t.equal(reply.head?.toString(), 'req-1\r\ncontent-type: application/json; charset=utf-8')
  t.equal(detector.stats().checks, 1)
})

t.test('with the default room, a long reply comes in its own Buffer and a short one in the reused memory', async (t) => {
  const { ask } = endpointWith()
  const text = `${'é'.repeat(49_000)} ada@example.com` // 98,016 bytes: under the 100,000 taken
  const long = answered(ask(body({ text, user_id: 'u1' }), 'req-long'))
  t.equal(long.reused, false)
  t.ok(long.body.length > 64 * 1024)
  t.equal(JSON.parse(long.body.toString()).redacted_text, `${'é'.repeat(49_000)} [EMAIL_1]`)
  const next = answered(ask(short, 'req-short'))
  t.equal(next.reused, true)
  t.equal(JSON.parse(next.body.toString()).request_id, 'req-short')
  t.equal(JSON.parse(long.body.toString()).request_id, 'req-long', 'an own Buffer is not overwritten by the next answer')
})

// The contract: a reused head and body are the endpoint's own memory, valid until the next
// `answer`. A caller sends or copies them first.
t.test('a reused reply is overwritten by the next answer: send or copy it first', async (t) => {
  const { ask } = endpointWith()
  const first = answered(ask(body({ text: 'first text', user_id: 'u1' }), 'req-1'))
  t.equal(first.reused, true)
  const copy = Buffer.from(first.body)
  const headCopy = Buffer.from(first.head!)
  t.equal(JSON.parse(first.body.toString()).request_id, 'req-1')
  const second = answered(ask(body({ text: 'other text', user_id: 'u2' }), 'req-2'))
  t.equal(second.reused, true)
  t.equal(first.body.buffer, second.body.buffer, 'both are views of the same memory')
  t.match(first.head!.toString(), /^req-2\r\n/, "the first head now shows the second's request id")
  t.not(first.body.toString(), copy.toString(), 'the first body is overwritten')
  t.equal(JSON.parse(copy.toString()).request_id, 'req-1', 'the copy is intact')
  t.match(headCopy.toString(), /^req-1\r\n/)
  const declined = ask(body({ text: '' }), 'req-3')
  t.equal(declined, undefined)
  t.equal(JSON.parse(second.body.toString()).request_id, 'req-2', 'a declined body writes nothing')
})
