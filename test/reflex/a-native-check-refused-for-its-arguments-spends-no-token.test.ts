import t from 'tap'
import { checkRequest, checkRequestBody, createEngine, replyRoom } from '../../src/reflex/engine.js'

// The route's native calls take a rate-limit token and check in one call. A call refused for its
// own arguments (memory too small for the decision) must throw before the token is taken, or a
// caller's bug would drain its users' buckets.
const limit = { capacity: 10, windowMs: 60_000 }
const TEXT = 'ordinary text'

t.test('checkRequest with a decision of fewer than six numbers throws and takes nothing', async (t) => {
  const engine = createEngine()
  t.throws(() => checkRequest(engine, TEXT, 0, 'req', 'user:a', limit, 0, new Float64Array(5)), /decision must hold 6 numbers/)
  const decision = new Float64Array(6)
  t.not(checkRequest(engine, TEXT, 0, 'req', 'user:a', limit, 0, decision), null)
  t.same([...decision.subarray(0, 3)], [1, 10, 9], 'the first good call takes the first token')
})

t.test('checkRequestBody with no room for the decision throws and takes nothing', async (t) => {
  const engine = createEngine()
  const json = Buffer.from(JSON.stringify({ text: TEXT, user_id: 'a' }))
  const small = { bytes: Buffer.alloc(47), decision: new Float64Array(5) }
  t.throws(() => checkRequestBody(engine, json, 'req', limit, 0, small), /decision's 48 bytes/)
  const room = replyRoom(4096)
  t.not(checkRequestBody(engine, json, 'req', limit, 0, room), null)
  t.same([...room.decision.subarray(0, 3)], [1, 10, 9], 'the first good call takes the first token')
})
