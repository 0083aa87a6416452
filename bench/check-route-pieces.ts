/**
 * What each piece of the check route's work costs on a cache hit, in one process, outside the HTTP
 * stack: the route as it was (decode + JSON.parse + schema + `rateLimit` + `checkJson` + splice +
 * the UTF-8 encoding uWS does to a string body) and as it is (`checkRequestBody`), each step alone.
 * CPU time per call (process.cpuUsage over a tight loop, so time lost to other processes on a
 * shared machine does not count), median of rounds. The HTTP side (uWS, hyper-express, headers)
 * is bench/http-check.ts's; the breakdown and what it decided: docs/performance.md.
 *
 *   node --import @tapjs/typescript/import bench/check-route-pieces.ts [--rounds 5] [--calls 100000]
 */
import { randomUUID } from 'node:crypto'
import { parseArgs } from 'node:util'
import { compileSchema } from '../src/http/validate.js'
import { checkRequest, checkRequestBody, createEngine, DECISION_NUMBERS, replyRoom } from '../src/reflex/engine.js'
import { CheckRequest } from '../src/reflex/schemas.js'
import { TEXT_PII } from './texts.js'

const { values: args } = parseArgs({
  options: { rounds: { type: 'string', default: '5' }, calls: { type: 'string', default: '100000' } },
})
const ROUNDS = Number(args.rounds)
const CALLS = Number(args.calls)

const engine = createEngine()
const parse = compileSchema(CheckRequest)
const key = (JSON.parse(`${engine.checkJson(TEXT_PII)}}`) as { cache_key: string }).cache_key
engine.cacheSet(key, '{"answer":"a stored task result"}', 3600)
// The bench's hit bodies: one text, 256 users.
const bodies = Array.from({ length: 256 }, (_, i) =>
  Buffer.from(JSON.stringify({ text: TEXT_PII, user_id: `bench-u-${String(i).padStart(3, '0')}` })),
)
const id = randomUUID()
const decision = new Float64Array(DECISION_NUMBERS)
const room = replyRoom(64 * 1024)
const limit = { capacity: 1_000_000, windowMs: 60_000 }
const ALL = { checkPii: true, checkInjection: true, useCache: true }
const checkBody = engine.checkJson(TEXT_PII, ALL)
let sink: unknown

const pieces: Array<[string, (i: number) => void]> = [
  [
    'before: whole route work (the rows below, in order)',
    (i) => {
      const b = parse(JSON.parse(bodies[i & 255]!.toString('utf8')))
      const d = engine.rateLimit(`user:${b.user_id}`, limit.capacity, limit.windowMs, 1)
      sink = [String(d.limit), String(d.remaining), String(Math.ceil(d.resetMs / 1000))]
      const c = engine.checkJson(b.text, ALL)
      sink = Buffer.from(`{"request_id":${JSON.stringify(id)},${c.slice(1)},"processing_time_ms":${(performance.now() - 1).toFixed(3)}}`)
    },
  ],
  [
    '  decode 1 KB + JSON.parse',
    (i) => {
      sink = JSON.parse(bodies[i & 255]!.toString('utf8'))
    },
  ],
  [
    '  typebox schema',
    () => {
      sink = parse({ text: TEXT_PII, user_id: 'bench-u-001' })
    },
  ],
  [
    '  rateLimit (returns a decision object)',
    (i) => {
      sink = engine.rateLimit(`user:bench-u-${i & 255}`, limit.capacity, limit.windowMs, 1)
    },
  ],
  [
    '  checkJson with a flags object (hit)',
    () => {
      sink = engine.checkJson(TEXT_PII, ALL)
    },
  ],
  [
    '  splice request_id and processing_time_ms',
    () => {
      sink = `{"request_id":${JSON.stringify(id)},${checkBody.slice(1)},"processing_time_ms":${(performance.now() - 1).toFixed(3)}}`
    },
  ],
  [
    '  UTF-8 of the 2 KB string body (uWS does it on send)',
    () => {
      sink = Buffer.from(`${checkBody}}`)
    },
  ],
  [
    'after: checkRequestBody (bytes in, head and body Buffers out)',
    (i) => {
      sink = checkRequestBody(engine, bodies[i & 255]!, id, limit, 0, room)
    },
  ],
  [
    '  checkRequest (the text as a string)',
    (i) => {
      sink = checkRequest(engine, TEXT_PII, 7, id, `user:bench-u-${i & 255}`, limit, 0, decision)
    },
  ],
  [
    '  checkJson without flags (the check itself, for reference)',
    () => {
      sink = engine.checkJson(TEXT_PII)
    },
  ],
  [
    '  randomUUID (request id)',
    () => {
      sink = randomUUID()
    },
  ],
]

const results = new Map<string, number[]>()
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, fn] of pieces) {
    for (let i = 0; i < CALLS / 5; i++) fn(i)
    const c0 = process.cpuUsage()
    for (let i = 0; i < CALLS; i++) fn(i)
    const c = process.cpuUsage(c0)
    results.set(name, [...(results.get(name) ?? []), (c.user + c.system) / CALLS])
  }
}
void sink
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN
console.log(`| piece (cache hit, 1 KB text) | µs CPU per call, median of ${ROUNDS} |\n|---|---|`)
for (const [name] of pieces) console.log(`| ${name.replace(/^ {2}/, '– ')} | ${median(results.get(name) ?? []).toFixed(2)} |`)
