/**
 * One engine call in a tight loop for a few seconds, so a native profiler can see where the
 * addon's time goes (the JS side is negligible here):
 *
 *   perf record -F 2000 -g -o /tmp/perf.data -- node --import @tapjs/typescript/import bench/native-loop.ts --text pii --seconds 5
 *   perf report -i /tmp/perf.data --no-children --sort dso,symbol | head -60
 *
 * --call checkJson (default) | check | cacheKey | redact; --text pii | clean | attack;
 * --pii/--injection false to switch a detector off.
 */
import { parseArgs } from 'node:util'
import { createEngine } from '../src/reflex/engine.js'
import { TEXT_ATTACK, TEXT_CLEAN, TEXT_PII } from './texts.js'

const { values: args } = parseArgs({
  options: {
    call: { type: 'string', default: 'checkJson' },
    text: { type: 'string', default: 'pii' },
    seconds: { type: 'string', default: '5' },
    pii: { type: 'string', default: 'true' },
    injection: { type: 'string', default: 'true' },
  },
})
const text = args.text === 'attack' ? TEXT_ATTACK : args.text === 'clean' ? TEXT_CLEAN : TEXT_PII
const flags = { checkPii: args.pii !== 'false', checkInjection: args.injection !== 'false', useCache: false }
const engine = createEngine()
const calls: Record<string, () => number> = {
  checkJson: () => engine.checkJson(text, flags).length,
  check: () => engine.check(text, flags).piiMatches.length,
  cacheKey: () => engine.cacheKey(text, flags).length,
  redact: () => engine.redact(text).piiMatches.length,
}
const call = calls[args.call ?? 'checkJson']
if (!call) throw new Error(`unknown --call ${args.call}`)
const until = performance.now() + Number(args.seconds) * 1000
let n = 0
let sink = 0
const t0 = performance.now()
while (performance.now() < until) {
  for (let i = 0; i < 1000; i++) sink += call()
  n += 1000
}
const us = ((performance.now() - t0) * 1000) / n
console.log(
  `${args.call} on ${args.text} (pii ${flags.checkPii}, injection ${flags.checkInjection}): ${n} calls, ${us.toFixed(2)} µs/call (sink ${sink > 0})`,
)
