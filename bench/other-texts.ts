/**
 * How representative the bench texts are: the addon's check (`checkJson`, no cache) of 1 KB texts
 * built from other material, beside bench/texts.ts's English + 2 PII in the same run.
 *
 *   node --import @tapjs/typescript/import bench/other-texts.ts [--rounds 5]
 *
 * Text sets, 256 texts each, the same every run (a seeded generator):
 * - docs prose: paragraphs of docs/*.md joined to 1 KB (technical English, typographic punctuation)
 * - corpus, benign: sentences of test/corpus/{pii,injection}.jsonl that are not attacks (personal
 *   data and hard negatives, many languages) joined to 1 KB: far denser than real text
 * - corpus, benign ASCII: the same, only sentences that are ASCII and hold no PEM block
 * - corpus, attacks: the attack sentences joined to 1 KB
 * Each row: µs per check (median of rounds after a warm-up round, each round every text of the
 * set at least once) and its ratio to the bench text's; then the same texts each checked 16 times
 * in a row, and the ratio of the two (what a bench that repeats one text leaves out).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { createEngine } from '../src/reflex/engine.js'
import { TEXT_PII } from './texts.js'

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, write: { type: 'string' } } })
const ROOT = join(import.meta.dirname, '..')
const engine = createEngine()

interface Item {
  text: string
  label?: string
}
const corpus = (name: string): Item[] =>
  readFileSync(join(ROOT, 'test/corpus', name), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Item)

function prose(): string[] {
  const dir = join(ROOT, 'docs')
  const all = readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n\n')
  return all
    .replace(/```[\s\S]*?```/g, '')
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter((p) => p.length > 80 && !/^[#|>-]/.test(p))
}

/** 256 texts of `pieces` joined until 1 KB, cut to 1,024 UTF-16 units; a Lehmer generator picks. */
function texts(pieces: string[]): string[] {
  let seed = 20261124
  const next = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647
  return Array.from({ length: 256 }, () => {
    let text = ''
    while (text.length < 1024) text += `${pieces[Math.floor(next() * pieces.length)]!} `
    return text.slice(0, 1024)
  })
}

const items = [...corpus('pii.jsonl'), ...corpus('injection.jsonl')]
const benign = items.filter((i) => i.label !== 'attack').map((i) => i.text)
const sets: Array<[string, string[]]> = [
  ['bench: English + 2 PII', [TEXT_PII]],
  ['docs prose', texts(prose())],
  ['corpus, benign', texts(benign)],
  ['corpus, benign ASCII', texts(benign.filter((t) => /^[\x20-\x7e]*$/.test(t) && !t.includes('-----BEGIN')))],
  ['corpus, attacks', texts(items.filter((i) => i.label === 'attack').map((i) => i.text))],
]

// `--write <dir>`: each set as a file of texts, one a line (`\n` for a line break), for the Rust
// example that reads one (`rotation`), instead of timing anything.
if (args.write !== undefined) {
  mkdirSync(args.write, { recursive: true })
  for (const [name, list] of sets) {
    const file = join(args.write, `${name.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}.txt`)
    writeFileSync(file, `${list.map((t) => t.replaceAll('\n', '\\n')).join('\n')}\n`)
    console.log(file)
  }
  process.exit(0)
}

// Each set is timed twice with the same number of calls: its texts in turn (every check a text
// unlike the last, as real traffic is) and each text repeated `REPEAT` times in a row (the way a
// bench that checks one text over and over runs). The instructions are the same; the time is not:
// a repeated text's branches are learnt by the CPU's predictor (docs/performance.md).
const CALLS = 512
const REPEAT = 16
const perSet = new Map<string, { turn: number[]; repeated: number[] }>()
const time = (list: string[], pick: (i: number) => number): number => {
  const start = process.hrtime.bigint()
  for (let i = 0; i < CALLS; i++) engine.checkJson(list[pick(i) % list.length]!, { useCache: false })
  return Number(process.hrtime.bigint() - start) / CALLS / 1000
}
// Round 0 warms up (each regex's lazy DFA builds its states on first use) and is not counted.
for (let round = 0; round <= Number(args.rounds); round++) {
  for (const [name, list] of sets) {
    const turn = time(list, (i) => i)
    // CALLS / REPEAT texts spread over the whole set (every eighth of 256), as the turn covers it.
    const stride = Math.max(1, Math.floor(list.length / (CALLS / REPEAT)))
    const repeated = time(list, (i) => Math.floor(i / REPEAT) * stride)
    const got = perSet.get(name) ?? { turn: [], repeated: [] }
    if (round > 0) perSet.set(name, { turn: [...got.turn, turn], repeated: [...got.repeated, repeated] })
  }
}
const median = (v: number[]): number => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!
const bench = median(perSet.get(sets[0]![0])?.turn ?? [])
console.log(`| texts | µs per check, texts in turn | ÷ bench text | µs, each text ${REPEAT}× in a row | in turn ÷ repeated |`)
console.log('|---|---|---|---|---|')
for (const [name] of sets) {
  const got = perSet.get(name) ?? { turn: [], repeated: [] }
  const [turn, repeated] = [median(got.turn), median(got.repeated)]
  console.log(`| ${name} | ${turn.toFixed(2)} | ${(turn / bench).toFixed(1)}× | ${repeated.toFixed(2)} | ${(turn / repeated).toFixed(2)} |`)
}
