/**
 * The answer cache's hit rate on a realistic query mix, beside the spec's target (a hit rate above
 * 80 % for common queries).
 *
 *   npm run bench:cache -- [--goals 3000] [--queries 100000] [--variants 0.3] [--seed 7] [--max-entries 100000]
 *
 * The mix: `--goals` distinct goals made from templates with a seeded generator, asked with a
 * Zipf-like popularity (s = 1.0: the goal of rank r is asked in proportion to 1/r), and a share
 * `--variants` of the queries written with other case or spacing ("what is …", "WHAT IS …",
 * doubled or trailing spaces), as people type them.
 *
 * The path: the orchestrator's task cache as it runs (task-service.ts): the caller's answer key
 * of the exact goal (`AnswerKeys`, HMAC of tenant, flags and text), looked up in the tiered store
 * over the addon's in-process tier, and on a miss the answer stored for the next asker, as a
 * completed task does. The reflex check route reads the same keys. The counts are the tier's own
 * (`ganglion_cache_requests_total`). Neither path normalises case or spacing: the answer to a text
 * is keyed by the text itself (docs/observability.md says why), so the same mix keyed by the
 * check's normalised `cache_key` is printed beside it, as what that choice costs.
 */
import { parseArgs } from 'node:util'
import { AnswerKeys, CacheTier, Detector } from '@ganglion/reflex'
import { MemoryCacheStore } from '../src/stores/memory-cache-store.js'
import { TieredCacheStore } from '../src/stores/tiered-cache-store.js'

const { values: args } = parseArgs({
  options: {
    goals: { type: 'string', default: '3000' },
    queries: { type: 'string', default: '100000' },
    variants: { type: 'string', default: '0.3' },
    seed: { type: 'string', default: '7' },
    'max-entries': { type: 'string', default: '100000' },
  },
})
const GOALS = Number(args.goals)
const QUERIES = Number(args.queries)
const VARIANTS = Number(args.variants)
const MAX_ENTRIES = Number(args['max-entries'])
const TARGET = 0.8
const S = 1.0

/** A seeded xorshift64: the same seed, the same mix. */
function generator(seed: bigint): () => number {
  let x = seed || 0x2545f4914f6cdd1dn
  return () => {
    x ^= (x << 13n) & 0xffffffffffffffffn
    x ^= x >> 7n
    x ^= (x << 17n) & 0xffffffffffffffffn
    return Number(x & 0xfffffffffffffn) / 2 ** 52
  }
}
const random = generator(BigInt(args.seed))
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!

const CITIES = ['Lisbon', 'Oslo', 'Nairobi', 'Lima', 'Hanoi', 'Quebec', 'Perth', 'Tbilisi', 'Cusco', 'Ghent', 'Turin', 'Busan']
const TOPICS = ['solar panels', 'heat pumps', 'rust', 'postgres indexes', 'sourdough', 'tax returns', 'jet lag', 'VAT', 'bike gears']
const UNITS = [
  ['miles', 'kilometres'],
  ['pounds', 'kilograms'],
  ['gallons', 'litres'],
  ['feet', 'metres'],
]
const LANGUAGES = ['French', 'German', 'Spanish', 'Japanese', 'Swahili', 'Polish']
const PHRASES = ['good morning', 'where is the station', 'thank you very much', 'the invoice is late', 'see you tomorrow']
const TEMPLATES: ReadonlyArray<() => string> = [
  () => `What is the weather like in ${pick(CITIES)} in ${pick(['spring', 'summer', 'autumn', 'winter'])}?`,
  () => `Summarise the latest notes on ${pick(TOPICS)}`,
  () => {
    const [from, to] = pick(UNITS)
    return `Convert ${1 + Math.floor(random() * 500)} ${from} to ${to}`
  },
  () => `Translate "${pick(PHRASES)}" into ${pick(LANGUAGES)}`,
  () => `How do I get from ${pick(CITIES)} to ${pick(CITIES)} by train?`,
  () => `Explain ${pick(TOPICS)} to a beginner in ${3 + Math.floor(random() * 8)} sentences`,
  () => `Compute ${2 + Math.floor(random() * 98)} * ${2 + Math.floor(random() * 98)}`,
]

/** `GOALS` distinct goals, in a seeded order that is also their popularity rank. */
function distinctGoals(): string[] {
  const seen = new Set<string>()
  while (seen.size < GOALS) seen.add(pick(TEMPLATES)())
  return [...seen]
}

/** The cumulative Zipf weights of ranks 1..n. */
function zipf(n: number): Float64Array {
  const cdf = new Float64Array(n)
  let sum = 0
  for (let r = 1; r <= n; r++) cdf[r - 1] = sum += 1 / r ** S
  for (let i = 0; i < n; i++) cdf[i]! /= sum
  return cdf
}

function rank(cdf: Float64Array): number {
  const u = random()
  let lo = 0
  let hi = cdf.length - 1
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (cdf[mid]! < u) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** The goal as someone else might type it: other case, or other spacing. */
function variant(goal: string): string {
  switch (Math.floor(random() * 5)) {
    case 0:
      return goal.toLowerCase()
    case 1:
      return goal.toUpperCase()
    case 2:
      return goal.replace(' ', '  ')
    case 3:
      return `${goal} `
    default:
      return ` ${goal.charAt(0).toLowerCase()}${goal.slice(1)}`
  }
}

async function main(): Promise<void> {
  const goals = distinctGoals()
  const cdf = zipf(goals.length)
  const keys = new AnswerKeys('bench-cache-hit-rate-secret')
  const detector = new Detector()
  const flags = { checkPii: true, checkInjection: true }
  const tier = new CacheTier({ maxEntries: MAX_ENTRIES })
  const cache = new TieredCacheStore(new MemoryCacheStore(tier))
  const normalised = new TieredCacheStore(new MemoryCacheStore(new CacheTier({ maxEntries: MAX_ENTRIES })))
  let variants = 0
  const started = performance.now()
  for (let q = 0; q < QUERIES; q++) {
    const goal = goals[rank(cdf)]!
    const varied = random() < VARIANTS
    if (varied) variants++
    const text = varied ? variant(goal) : goal
    const answer = JSON.stringify({ answer: `the answer to ${goal}` })
    const key = keys.key('bench', text, flags)
    if ((await cache.get(key)) === undefined) await cache.set(key, answer, 3600)
    const nkey = detector.cacheKey(text, flags)
    if ((await normalised.get(nkey)) === undefined) await normalised.set(nkey, answer, 3600)
  }
  const seconds = (performance.now() - started) / 1000
  const exact = (await cache.stats()).tiers[0]!
  const norm = (await normalised.stats()).tiers[0]!
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`
  const verdict = (x: number) => (x > TARGET ? 'above' : 'below')
  console.log(
    `${QUERIES} queries over ${goals.length} distinct goals, Zipf s=${S}, ${pct(variants / QUERIES)} case/spacing variants, seed ${args.seed}, ${seconds.toFixed(1)} s`,
  )
  console.log('| key | hits | misses | evictions | hit rate | spec target |')
  console.log('|---|---|---|---|---|---|')
  console.log(
    `| exact text (the answer cache as it runs) | ${exact.hits} | ${exact.misses} | ${exact.evictions} | ${pct(exact.hit_rate)} | 80 %: ${verdict(exact.hit_rate)} |`,
  )
  console.log(
    `| normalised text (the check's cache_key) | ${norm.hits} | ${norm.misses} | ${norm.evictions} | ${pct(norm.hit_rate)} | 80 %: ${verdict(norm.hit_rate)} |`,
  )
}

await main()
