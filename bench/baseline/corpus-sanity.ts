/**
 * How much of the labelled corpus (test/corpus/) the TypeScript baseline catches, beside the
 * addon: evidence that the baseline does comparable work, so its speed ratio is a fair one. Not a
 * quality report (that is the corpus scorer's job); a rough recall / false-positive count.
 *
 *   node --import @tapjs/typescript/import bench/baseline/corpus-sanity.ts [--corpus test/corpus]
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { Detector } from '@ganglion/reflex'
import { tsCheck } from './ts-detector.js'

const { values: args } = parseArgs({ options: { corpus: { type: 'string', default: 'test/corpus' } } })
const dir = args.corpus ?? 'test/corpus'

interface PiiItem {
  text: string
  entities: Array<{ type: string; value: string }>
}
interface InjectionItem {
  text: string
  label: string
  family?: string
}
const lines = <T>(file: string): T[] =>
  readFileSync(join(dir, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T)

const detector = new Detector()

// PII: an entity counts as found when a match of the same type covers its value exactly.
const pii = lines<PiiItem>('pii.jsonl')
const found = { ts: 0, native: 0 }
const extra = { ts: 0, native: 0 }
let expected = 0
for (const item of pii) {
  const native = detector.check(item.text).pii_matches.map((m) => ({ type: m.type, matchedText: m.matched_text }))
  const sides = { ts: tsCheck(item.text).piiMatches, native }
  expected += item.entities.length
  for (const side of ['ts', 'native'] as const) {
    const ms = sides[side]
    const hit = (e: { type: string; value: string }): boolean => ms.some((m) => m.type === e.type && m.matchedText === e.value)
    found[side] += item.entities.filter(hit).length
    extra[side] += ms.filter((m) => !item.entities.some((e) => e.type === m.type && e.value === m.matchedText)).length
  }
}

// Injection: attack flagged = severity at least medium; benign flagged = a false positive.
const inj = lines<InjectionItem>('injection.jsonl')
const flagged = (sev: string): boolean => sev === 'medium' || sev === 'high' || sev === 'critical'
const tally = { ts: { tp: 0, fp: 0 }, native: { tp: 0, fp: 0 } }
let attacks = 0
let benign = 0
for (const item of inj) {
  const isAttack = item.label === 'attack'
  if (isAttack) attacks++
  else benign++
  const sev = { ts: tsCheck(item.text).severity, native: detector.check(item.text).severity }
  for (const side of ['ts', 'native'] as const) {
    if (!flagged(sev[side])) continue
    if (isAttack) tally[side].tp++
    else tally[side].fp++
  }
}

const pct = (a: number, b: number): string => `${((100 * a) / Math.max(1, b)).toFixed(1)} %`
console.log(
  `| detector | PII entities found (of ${expected}) | unlabelled PII matches | attacks flagged ≥ medium (of ${attacks}) | benign flagged (of ${benign}) |`,
)
console.log('|---|---|---|---|---|')
for (const side of ['native', 'ts'] as const) {
  console.log(
    `| ${side === 'ts' ? 'TS baseline' : 'native addon'} | ${found[side]} (${pct(found[side], expected)}) | ${extra[side]} | ` +
      `${tally[side].tp} (${pct(tally[side].tp, attacks)}) | ${tally[side].fp} (${pct(tally[side].fp, benign)}) |`,
  )
}
