// Every regular expression in src/ is read from the source (regex literals and `new RegExp(…)`
// through the TypeScript parser) and analysed with recheck, a ReDoS checker: a pattern that can
// backtrack super-linearly (exponential or polynomial) fails here with its file:line and an attack
// string, and so does one recheck cannot decide. JavaScript's engine backtracks, so such a pattern
// over client text can hold the event loop for minutes.
//
// Only recheck's automaton analysis is used: it decides a pattern from its structure, the same way
// on every run. Its fuzzer (which a default check falls back to for look-around, or when the
// automaton grows too large) gives verdicts that depend on timing. A pattern it rejects is
// rewritten: as plain code (src/text-scan.ts), or on the Rust regex engine (src/linear-pattern.ts),
// which runs in linear time whatever the pattern.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import t from 'tap'
import { regexesIn } from '../helpers/regexes-in-source.js'

// recheck's native build where its package installed it, else Java, else pure JavaScript
const { check } = await import('recheck')

const ROOT = new URL('../../', import.meta.url).pathname
const SRC = join(ROOT, 'src')

/**
 * Patterns built at run time from parts the reader cannot evaluate, each checked with a stand-in of
 * the same shape. number-words.ts joins its fixed list of number words (built at load, never from
 * client text) longest first; the stand-in keeps the overlapping words (six, sixteen, sixty,
 * sixtieth) an ambiguity would need.
 */
const STAND_INS: Readonly<Record<string, Record<string, string>>> = {
  'src/arms/coder/number-words.ts': { WORD: 'sixteenth|sixteen|seventy|sixtieth|sixty|seven|hundred|six|one' },
}

/**
 * Regexes the check cannot analyse or that are allowed as they are, each with its reason. Keyed by
 * file and the expression as written. Keep this list short: a new entry needs a reason that holds.
 */
const ALLOWED: ReadonlyArray<{ file: string; source: string; reason: string }> = [
  {
    file: 'src/arms/judge/safe-regex.ts',
    source: 'new RegExp(pattern, flags)',
    reason:
      "a check's or a JSON Schema's own pattern, compiled only to check its syntax; a check's pattern is matched on the Rust engine, a schema's (run by typebox) is refused with nested quantifiers or back-references and run under a time limit",
  },
]

/** The automaton analysis alone, with a fixed seed and no time limit: the same verdict on every run. */
function analyse(pattern: string, flags: string) {
  return check(pattern, flags, { checker: 'automaton', timeout: null, randomSeed: 0 })
}

const files = (readdirSync(SRC, { recursive: true }) as string[])
  .filter((f) => f.endsWith('.ts'))
  .map((f) => relative(ROOT, join(SRC, f)))
  .sort()
const found = files.flatMap((file) => regexesIn(file, readFileSync(join(ROOT, file), 'utf8'), STAND_INS[file]))
const allowed = (where: string, source: string) => ALLOWED.some((a) => where.startsWith(`${a.file}:`) && a.source === source)

t.test('the reader finds literals and evaluates RegExp calls', async (t) => {
  const sample = [
    'const A = String.raw`\\d+`',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source as text
    "const re = new RegExp(`^${A}(?:x|y)$`, 'u')",
    'const lit = /a+b/gi',
    'function f(p: string) { return new RegExp(p) }',
  ].join('\n')
  t.same(
    regexesIn('x.ts', sample).map((r) => [r.where, r.pattern, r.flags]),
    [
      ['x.ts:2', '^\\d+(?:x|y)$', 'u'],
      ['x.ts:3', 'a+b', 'gi'],
      ['x.ts:4', undefined, ''],
    ],
  )
})

t.test('the checker tells a vulnerable pattern from a safe one', async (t) => {
  const bad = await analyse('^(?:a|a)*$', '')
  t.equal(bad.status, 'vulnerable')
  const good = await analyse('^[a-z]+(?:-[a-z]+)*$', '')
  t.equal(good.status, 'safe')
})

t.test('every regex in src/ matches in linear time', async (t) => {
  t.setTimeout(120_000)
  t.ok(found.length > 50, `found ${found.length} regexes`)
  const problems: string[] = []
  for (const regex of found) {
    if (allowed(regex.where, regex.source)) continue
    if (regex.pattern === undefined) {
      problems.push(`${regex.where} ${regex.source}: the pattern is not fixed by the source; allow it with a reason or fix it`)
      continue
    }
    const result = await analyse(regex.pattern, regex.flags)
    if (result.status === 'vulnerable')
      problems.push(`${regex.where} /${regex.pattern}/${regex.flags}: ${result.complexity.summary}, attack ${result.attack.pattern}`)
    else if (result.status === 'unknown')
      problems.push(`${regex.where} /${regex.pattern}/${regex.flags}: not analysed (${JSON.stringify(result.error)})`)
  }
  t.same(problems, [], problems.join('\n'))
})

t.test('every allow-list entry still names a regex in src/', async (t) => {
  for (const entry of ALLOWED)
    t.ok(
      found.some((r) => r.where.startsWith(`${entry.file}:`) && r.source === entry.source),
      `${entry.file}: ${entry.source}`,
    )
})
