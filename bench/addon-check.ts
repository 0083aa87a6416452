/**
 * The addon's check beside a plain TypeScript detector, in one process, on four 1 KB texts
 * (bench/texts.ts). Targets: native check of 1 KB < 20 µs and ≥ 5× faster than detection written
 * in plain TypeScript regexes.
 *
 *   node --import @tapjs/typescript/import bench/addon-check.ts [--rounds 3] [--time 1000]
 *
 * The baseline (bench/baseline/ts-detector.ts) is a lighter detector than the core (a few dozen
 * English rows, no decoding or judging, no routing or key; its header lists what it leaves out),
 * so the ratio against it understates the addon's margin.
 *
 * Rows per text: `native checkJson` (`Detector.checkJson` of `@ganglion/reflex`: the result as JSON
 * text, the addon's own answer) beside the baseline + `JSON.stringify`, and `native check` (the
 * object result, the JSON parsed) beside the baseline's object result. Each round runs every task once, in order; the table shows the median
 * over rounds of each statistic, so one noisy round does not decide a figure. On a shared machine
 * the mean carries the outliers (GC, preemption by other processes) and the p50 is the steadier
 * figure; both ratios are printed.
 */
import { cpus } from 'node:os'
import { parseArgs } from 'node:util'
import { version as addonVersion, Detector } from '@ganglion/reflex'
import { Bench, type Task } from 'tinybench'
import { detectInjection, detectPii, tsCheck } from './baseline/ts-detector.js'
import { TEXT_ATTACK, TEXT_CLEAN, TEXT_PII, TEXT_TYPOGRAPHIC } from './texts.js'

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    time: { type: 'string', default: '1000' },
  },
})
const ROUNDS = Number(args.rounds)
const TIME_MS = Number(args.time)

const detector = new Detector()

const texts = [
  ['1 KB English + 2 PII', TEXT_PII],
  ['1 KB English + 2 PII, typographic', TEXT_TYPOGRAPHIC],
  ['1 KB clean', TEXT_CLEAN],
  ['1 KB attack', TEXT_ATTACK],
] as const

// What each side finds, so the reader can see they do comparable work.
console.log(`# addon ${addonVersion}, node ${process.version}, ${cpus()[0]?.model ?? 'cpu?'} × ${cpus().length}`)
console.log('\n| text | chars | native PII | ts PII | native injection (severity) | ts injection |')
console.log('|---|---|---|---|---|---|')
for (const [name, text] of texts) {
  const n = detector.check(text)
  const b = tsCheck(text)
  const types = (ms: Array<{ type: string }>): string => ms.map((m) => m.type).join(', ') || '–'
  console.log(
    `| ${name} | ${text.length} | ${types(n.pii_matches)} | ${types(b.piiMatches)} | ` +
      `${n.injection_matches.length} (${n.severity}) | ${b.injectionMatches.length} (${b.severity}) |`,
  )
}

let sink = 0 // keeps results observable so no call is optimised away
/** [text, label, fn, the label of the baseline row it is compared with] */
type Row = [string, string, () => void, [string] | []]
const tasks: Row[] = []
for (const [name, text] of texts) {
  // Both sides give an object: the addon's JSON parsed by the package, the baseline's built in JS.
  tasks.push([name, 'native checkJson', () => (sink += detector.checkJson(text).length), ['ts + stringify']])
  tasks.push([name, 'native check', () => (sink += detector.check(text).pii_matches.length), ['ts']])
  tasks.push([name, 'ts', () => (sink += tsCheck(text).piiMatches.length), []])
  tasks.push([name, 'ts + stringify', () => (sink += JSON.stringify(tsCheck(text)).length), []])
}

// Where the native time goes: each detector alone, and what is left with both off (cache key,
// routing, the boundary crossing); beside the baseline's detectors alone.
const decomposition: Row[] = []
for (const [name, text] of texts) {
  const only = (checkPii: boolean, checkInjection: boolean) => ({ checkPii, checkInjection })
  decomposition.push([
    name,
    'native check, PII only',
    () => (sink += detector.check(text, only(true, false)).pii_matches.length),
    ['ts detectPii'],
  ])
  decomposition.push([
    name,
    'native check, injection only',
    () => (sink += detector.check(text, only(false, true)).injection_matches.length),
    ['ts detectInjection'],
  ])
  decomposition.push([name, 'native check, neither', () => (sink += detector.check(text, only(false, false)).cache_key.length), []])
  decomposition.push([name, 'native cacheKey', () => (sink += detector.cacheKey(text).length), []])
  decomposition.push([name, 'ts detectPii', () => (sink += detectPii(text).length), []])
  decomposition.push([name, 'ts detectInjection', () => (sink += detectInjection(text).matches.length), []])
}
tasks.push(...decomposition)

interface Stat {
  mean: number
  p50: number
  p99: number
  samples: number
}
const perTask = new Map<string, Stat[]>()

for (let round = 1; round <= ROUNDS; round++) {
  const bench = new Bench({ time: TIME_MS, warmupTime: 200, timestampProvider: 'hrtimeNow' })
  for (const [text, label, fn] of tasks) bench.add(`${text} | ${label}`, fn)
  await bench.run()
  for (const task of bench.tasks as Task[]) {
    const r = task.result
    if (r.state !== 'completed') throw new Error(`${task.name}: ${r.state}`)
    const list = perTask.get(task.name) ?? []
    // tinybench reports milliseconds; the table is in microseconds.
    list.push({ mean: r.latency.mean * 1e3, p50: r.latency.p50 * 1e3, p99: r.latency.p99 * 1e3, samples: task.runs })
    perTask.set(task.name, list)
  }
  process.stderr.write(`round ${round}/${ROUNDS} done\n`)
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2
}
const stat = (name: string): Stat => {
  const list = perTask.get(name) ?? []
  return {
    mean: median(list.map((s) => s.mean)),
    p50: median(list.map((s) => s.p50)),
    p99: median(list.map((s) => s.p99)),
    samples: list.reduce((a, s) => a + s.samples, 0),
  }
}
const f = (x: number): string => (x >= 100 ? x.toFixed(0) : x.toFixed(2))

const table = (rows: Row[]): void => {
  console.log('| text | implementation | mean µs | p50 µs | p99 µs | samples | ts ÷ this (p50) | ts ÷ this (mean) | < 20 µs (p50, mean) |')
  console.log('|---|---|---|---|---|---|---|---|---|')
  for (const [text, label, , partners] of rows) {
    const s = stat(`${text} | ${label}`)
    const native = label.startsWith('native')
    const [base] = partners.map((p) => stat(`${text} | ${p}`))
    const ratio = (b: number | undefined, n: number): string =>
      b === undefined ? '' : `${(b / n).toFixed(1)}×${b / n >= 5 ? '' : ' (MISSED ≥ 5×)'}`
    const under = native && label.includes('check') ? `${s.p50 < 20 ? 'yes' : 'NO'}, ${s.mean < 20 ? 'yes' : 'NO'}` : ''
    console.log(
      `| ${text} | ${label} | ${f(s.mean)} | ${f(s.p50)} | ${f(s.p99)} | ${s.samples} | ${ratio(base?.p50, s.p50)} | ` +
        `${ratio(base?.mean, s.mean)} | ${under} |`,
    )
  }
}
console.log(`\n## ${ROUNDS} rounds × ${TIME_MS} ms per task; median over rounds (µs per op)\n`)
table(tasks.filter((t) => !decomposition.includes(t)))
console.log('\n### Decomposition: each detector alone (the "≥ 5×" mark is only a reference here)\n')
table(decomposition)
console.log(`\n(sink ${sink > 0 ? 'ok' : 'empty'})`)
