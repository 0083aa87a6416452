import { readFileSync } from 'node:fs'
import t from 'tap'
import { xorshift } from '../helpers/xorshift.js'
import { KEYWORDS } from '../../bench/baseline/same/routing-keywords.js'
import { route, scan, type Arm, type Complexity } from '../../bench/baseline/same/routing.js'
import { createEngine } from '../../src/reflex/engine.js'
import { corpusTexts } from '../helpers/corpus.js'

// The plain port of the reflex core's routing hints (crates/reflex-core/src/routing/): the
// cases of its unit tests, and the addon's own routing on every corpus text.

const arms = (text: string): Arm[] => route(text, false, false, false).suggestedArms
const complexity = (text: string): Complexity => route(text, false, false, false).complexity

t.test('the route follows the verdicts, blocked first', async (t) => {
  t.equal(route('hi', false, false, false).route, 'orchestrator')
  t.equal(route('hi', true, false, false).route, 'cache')
  t.equal(route('hi', true, true, false).route, 'blocked')
  t.equal(route('hi', false, true, true).route, 'blocked')
})

t.test('short questions are simple', async (t) => {
  t.equal(complexity('What is the capital of France?'), 'simple')
  t.equal(complexity(''), 'simple')
  t.equal(complexity('Hello. How are you?'), 'simple')
  t.same(arms('What is the capital of France?'), [])
})

t.test('sequenced or multi-intent requests are moderate', async (t) => {
  t.equal(complexity('Download the report and then summarise it. After that email it to Bob.'), 'moderate')
  t.equal(complexity('Find the latest release notes and run the test suite.'), 'moderate')
  t.same(route('Search the docs for the rate limit, then write a script to test it.', false, false, false), {
    route: 'orchestrator', complexity: 'moderate', suggestedArms: ['planner', 'retriever', 'coder', 'judge'],
  })
})

t.test('lists, code and length make a request complex', async (t) => {
  const plan =
    'Please do the following:\n1. Search the knowledge base for the outage report.\n' +
    '2. Run the diagnostics command on each host.\n3) Fix the bug in the retry function, then verify it.\n' +
    '4. Finally, redact personal data from the summary.\n'
  t.equal(complexity(plan), 'complex')
  t.same(arms(plan), ['planner', 'retriever', 'executor', 'coder', 'judge', 'guardian'])
  const withCode = 'Refactor this:\n```rust\nfn main() { println!("hi"); }\n```\nthen test it.'
  t.equal(complexity(withCode), 'moderate')
  t.equal(complexity('word '.repeat(250) + '. Then again. And again. And once more. Done. Really.'), 'complex')
})

t.test('list markers and fences count at line starts only', async (t) => {
  const s = scan('- a\n  * b\n+ c\n10) d\n1.5 is not a marker\nx - y\n```\n~~~\nnot ``` here')
  t.same([s.listItems, s.codeFences], [4, 2])
  t.equal(scan('1. one\n2. two').sentences, 2, "a numbered marker's dot ends no sentence")
  t.equal(scan('Pi is 3.14 roughly. e.g. this').sentences, 3)
  t.equal(scan('1234. x\n').listItems, 0, 'four digits are no marker')
})

t.test('intent keywords pick arms in a fixed order', async (t) => {
  t.same(arms('search for hotels in Rome'), ['retriever'])
  t.same(arms('Look up the population of Peru'), ['retriever'])
  t.same(arms('please COMPUTE 17 * 23'), ['executor'])
  t.same(arms('execute ls in a shell'), ['executor'])
  t.same(arms('write a function that reverses a string'), ['coder'])
  t.same(arms('fix the bug in my parser'), ['coder'])
  t.same(arms('fix bug 123'), ['coder'])
  t.same(arms('verify this proof'), ['judge'])
  t.same(arms('sanitize my notes'), ['guardian'])
  t.same(arms('strip personal data out'), ['guardian'])
  t.same(arms('PII please'), ['guardian'])
  t.same(arms('look at this bug, the data is up'), [], 'halves of phrases alone mean nothing')
})

t.test('pii found adds the guardian; the planner leads when not simple', async (t) => {
  t.same(route('tell me a joke', false, false, true).suggestedArms, ['guardian'])
  t.same(route('redact this', false, false, true).suggestedArms, ['guardian'])
  const hint = route('Search for flights, then calculate the cheapest, then check the dates.', true, false, false)
  t.equal(hint.route, 'cache')
  t.not(hint.complexity, 'simple')
  t.same(hint.suggestedArms, ['planner', 'retriever', 'executor', 'judge'])
})

t.test('the keyword table is the Rust one', async (t) => {
  const rust = readFileSync(new URL('../../crates/reflex-core/src/routing/keywords.rs', import.meta.url), 'utf8')
  const listed = [...rust.matchAll(/\(b"([a-z]+)", Word::(\w+)\)/g)].map(([, w, kind]) => [w, kind?.toLowerCase()])
  t.equal(listed.length, 91)
  t.same([...KEYWORDS].map(([w, kind]) => [w, kind]), listed)
})

t.test('near misses of keywords are no keywords', async (t) => {
  t.same(arms('search the docs'), ['retriever'])
  for (const miss of ['searchx', 'tes', 'implementations', 'xthen', 'runsrunsrunsrunsruns', 'run_', "run's", 'run9', 'SEARCHX']) {
    t.same(arms(`${miss} the docs`), [], miss)
  }
  t.same(arms('SEARCH the docs'), ['retriever'], 'any ASCII case')
  t.same(arms('\u212anowledge base'), [], 'the Kelvin sign is no k')
  t.same(arms('KNOWLEDGE base'), ['retriever'], 'a keyword in upper case')
})

t.test('phrases count only with their first half right before', async (t) => {
  t.same(arms('fix the bug'), ['coder'])
  t.same(arms('fix bug'), ['coder'])
  t.same(arms('the bug'), [])
  t.same(arms('fix a nasty bug'), [])
  t.same(arms('look it up'), [])
  t.same(arms('LOOKING UP'), ['retriever'])
  t.same(arms('personal data'), ['guardian'])
  t.same(arms('fix.\n- the bug'), ['coder'], 'punctuation, lines and markers keep a phrase open')
  t.equal(scan('after that').sequencing, 1)
  t.equal(scan('then after that').sequencing, 1)
  t.equal(scan('then soon after that').sequencing, 2)
})

t.test('non-ASCII text', async (t) => {
  t.same(arms('Ｓｅａｒｃｈ naïve café — ünïcode 🚀? Then ✓ test.'), ['judge'], 'full-width letters are not folded')
  t.equal(scan('naïve café. 🚀 done!').sentences, 2)
  t.equal(scan('ünï').bytes, 5, 'bytes are UTF-8 bytes, not code units')
  t.equal(complexity('é'.repeat(155) + ' then search.'), 'moderate', '323 bytes (168 code units) and a sequence word')
})

t.test('the addon routes every corpus text as the port does', async (t) => {
  const engine = createEngine()
  const texts = corpusTexts()
  const extra = [
    'Please do the following:\n1. Search the knowledge base.\n2. Run it.\n3) Fix the bug, then verify it.\n4. Finally, redact personal data.\n',
    'Refactor this:\n```rust\nfn main() {}\n```\nthen test it.',
    'word '.repeat(250) + '. Then again. And again. And once more. Done. Really.',
    'Ｓｅａｒｃｈ naïve café — ünïcode 🚀? Then ✓ test.',
    'fix.\n- the bug',
    'é'.repeat(155) + ' then search.',
    'then after that, look\n\n  up 1234. x\n12) y\n~~~ z. a.b!c? d\r\n',
  ]
  let agree = 0
  const seen = new Set<string>()
  for (const text of [...texts, ...extra]) {
    const r = engine.check(text, { useCache: false })
    const mine = route(text, false, r.blocked, r.piiMatches.length > 0)
    if (JSON.stringify(mine) === JSON.stringify(r.routing)) agree++
    else t.same(mine, r.routing, JSON.stringify(text))
    seen.add(`${r.routing.route} ${r.routing.complexity}`)
  }
  t.equal(agree, texts.length + extra.length, `${agree} of ${texts.length + extra.length} texts agree`)
  t.ok(texts.length > 800, `${texts.length} corpus texts`)
  t.ok(seen.size >= 4, `routes and complexities seen: ${[...seen].join(', ')}`)
})

// The pieces of the Rust scan's own random test (routing/tests.rs), joined at random: words
// that share a keyword's first letters, phrases, stops, markers and fences at line starts,
// white space of every kind, non-ASCII characters and long words.
const PIECES = [
  'the', 'Then', 'SEARCH', 'look', 'up', 'fix', 'a', 'bug', 'personal', 'data', 'after', 'that',
  'Looks', 'UP', 'fixes', 'FIXING', 'this', 'my', 'bugs', 'Personal', 'details', 'info', 'AFTER', 'That',
  'afterwards', 'lastly', 'then after that', 'fix the bug', 'look up', 'the bug', 'code', 'pii',
  'finally', 'run', 'tests', 'x', ' ', '  ', '.', '. ', '!', '?', ',', ';', ':', '\n', '\n  ', '\n\t',
  '\n- ', '\n* ', '\n+ ', '\n1. ', '\n12) ', '\n1234. ', '\n```', '\n~~~', '```', '- ', '3. ', '\r',
  '\t', "'", '_', '9', '-', '(', '\u00e9', '\u{1f680}', '\u00a0', 'implementation',
  'averyveryverylongwordthatcrossesblocks', 'another_long_identifier_with_underscores_and_digits_0123456789',
  'verification', '\0', '\u000c', '\u000b', '.\r', '!\u000c',
  'runner', "RUN'S", 'pii_x', 'fix9', 'thence', 'Theory', "it's", '_run', 'fix_', "''", '__',
]

t.test('the addon routes random texts of the Rust test pieces as the port does', async (t) => {
  const engine = createEngine()
  const next = xorshift(0x9e3779b97f4a7c15n)
  let agree = 0
  const rounds = 3000
  for (let round = 0; round < rounds; round++) {
    let text = ''
    const n = next(round % 10 === 0 ? 400 : 40)
    for (let k = 0; k < n; k++) text += PIECES[next(PIECES.length)]
    const r = engine.check(text, { useCache: false })
    const mine = route(text, false, r.blocked, r.piiMatches.length > 0)
    if (JSON.stringify(mine) === JSON.stringify(r.routing)) agree++
    else t.same(mine, r.routing, JSON.stringify(text))
  }
  t.equal(agree, rounds, `${agree} of ${rounds} random texts agree`)
})
