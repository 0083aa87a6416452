/**
 * The check route's native call on the cache-miss path, outside the HTTP stack: `checkRequestBody`
 * over the HTTP bench's 256 miss bodies (one 1 KB text each, a counter in its last ten characters,
 * 256 users; none ever stored in the cache). Prints the CPU time per call (process.cpuUsage over a
 * tight loop, median of rounds); with `--callgrind` it makes a fixed number of calls and nothing
 * else, for instruction counts of the call alone:
 *
 *   valgrind --tool=callgrind --toggle-collect='reflex_node::request::check_request_body_c_callback' \
 *     node --import @tapjs/typescript/import bench/native-miss.ts --callgrind --calls 2000
 *
 * (exactly that name: a wildcard also matches the inner function and toggles collection off
 * again). Divide the total by the calls. `--hit` runs the hit bodies instead (one stored text).
 */
import { randomUUID } from 'node:crypto'
import { parseArgs } from 'node:util'
import { checkRequestBody, createEngine, replyRoom } from '../src/reflex/engine.js'
import { TEXT_PII, variant } from './texts.js'

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    calls: { type: 'string', default: '100000' },
    callgrind: { type: 'boolean', default: false },
    hit: { type: 'boolean', default: false },
  },
})
const ROUNDS = Number(args.rounds)
const CALLS = Number(args.calls)
const USERS = 256

const engine = createEngine()
// As the HTTP bench: the hit text is stored (and memoised by its first hit), the miss texts never.
const key = (JSON.parse(`${engine.checkJson(TEXT_PII)}}`) as { cache_key: string }).cache_key
engine.cacheSet(key, '{"answer":"a stored task result"}', 3600)
engine.checkJson(TEXT_PII)
const bodyOf = (text: string, user: number): Buffer =>
  Buffer.from(`{"text":${JSON.stringify(text)},"user_id":"bench-u-${String(user % USERS).padStart(3, '0')}"}`)
const bodies = Array.from({ length: USERS }, (_, i) =>
  args.hit ? bodyOf(TEXT_PII, i) : bodyOf(variant(`#${i.toString(36).padStart(9, '0')}`), i),
)
const id = randomUUID()
const room = replyRoom(64 * 1024)
const limit = { capacity: 1_000_000_000, windowMs: 60_000 }
let sink: unknown

const call = (i: number): void => {
  sink = checkRequestBody(engine, bodies[i & 255]!, id, limit, 0, room)
}

if (args.callgrind) {
  for (let i = 0; i < CALLS; i++) call(i)
} else {
  const times: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < CALLS / 5; i++) call(i)
    const c0 = process.cpuUsage()
    for (let i = 0; i < CALLS; i++) call(i)
    const c = process.cpuUsage(c0)
    times.push((c.user + c.system) / CALLS)
  }
  times.sort((a, b) => a - b)
  console.log(
    `checkRequestBody (${args.hit ? 'hit' : 'miss'}, 1 KB text): ${times[times.length >> 1]!.toFixed(2)} µs CPU per call, median of ${ROUNDS}`,
  )
}
void sink
