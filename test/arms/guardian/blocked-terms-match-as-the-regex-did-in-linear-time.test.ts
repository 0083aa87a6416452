// Blocked terms are found by Aho-Corasick in the addon. The reference below is the single regular
// expression they were matched with before (one alternation, longest term first, whole words,
// case-insensitive): on ordinary outputs both give the same text and count, and a hostile policy
// (500 terms of 200 characters over a 10 MiB output) finishes in well under a second or two.
import t from 'tap'

import { applyPolicy, parseOutputPolicy } from '../../../src/arms/guardian/output-policy.js'
import { guard } from './guardian-fixture.js'

function referencePolicy(terms: string[], text: string): { text: string; blocked: number } {
  const escapeTerm = (term: string) => term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+')
  const alternatives = terms
    .map((term) => term.trim())
    .filter(Boolean)
    .sort((a, b) => b.length - a.length)
    .map(escapeTerm)
    .join('|')
  let blocked = 0
  const out = text.replace(new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alternatives})(?![\\p{L}\\p{N}_])`, 'giu'), () => {
    blocked++
    return '[blocked]'
  })
  return { text: out, blocked }
}

const CASES: Array<{ terms: string[]; text: string }> = [
  { terms: ['Project Falcon', 'acme'], text: 'PROJECT FALCON for Acme; acmeCorp stays' },
  { terms: ['project', 'project falcon'], text: 'project falconry, project falcon, Project  Falcon\nX, projects' },
  { terms: ['cat'], text: 'cat category bobcat cat_x cat. CAT! (cat)' },
  { terms: ['p.o.', 'c++', 'a|b', '[x]'], text: 'P.O. Box, c++ code, a|b, [x] and [X].' },
  { terms: ['.', 'x'], text: '.. x.x x_x' },
  { terms: ['straße', 'σοφία', 'kelvin', 'é'], text: 'Straße STRASSE ΣΟΦΊΑ \u212aelvin café é' },
  { terms: ['secret plan'], text: 'the secret\u00a0plan, the secret\r\n\tplan, the secretplan' },
  { terms: ['emoji 😀'], text: '😀 emoji 😀 and emoji😀' },
  { terms: ['  padded  ', ' '], text: 'padded, and not padded' },
  { terms: ['ab', 'abc', 'b'], text: 'abc ab b abcd' },
  { terms: ['42'], text: '42 420 4.2 x42 42x 42' },
]

t.test('the same outputs and counts as the single regular expression', async (t) => {
  for (const { terms, text } of CASES) {
    const policy = parseOutputPolicy({ output_policy: { blocked_terms: terms } })!
    const applied = applyPolicy(policy, text)
    t.same({ text: applied.text, blocked: applied.blocked }, referencePolicy(terms, text), JSON.stringify(terms))
  }
})

t.test('the guardian reports each blocked term it replaced', async (t) => {
  const { output, events } = await guard<{ text: string }>({
    tool: 'scrub',
    input: { text: 'The Project Falcon memo names ACME twice: acme.' },
    constraints: { output_policy: { blocked_terms: ['project falcon', 'acme'] } },
  })
  t.equal(output.text, 'The [blocked] memo names [blocked] twice: [blocked].')
  t.same(events, [{ type: 'guardrail.policy', data: { blocked_terms: 3, truncated: 0 } }])
})

t.test('500 terms of 200 characters over a 10 MiB output finish quickly', async (t) => {
  // each term reads as the text for 199 characters and differs in its last one
  const terms = Array.from({ length: 500 }, (_, i) => `${'a '.repeat(98)}a${String(i).padStart(3, '0')}`.slice(0, 200))
  t.equal(terms[0]!.length, 200)
  const text = `${'a '.repeat(5 * 1024 * 1024)}a499`
  t.ok(text.length >= 10 * 1024 * 1024)
  const policy = parseOutputPolicy({ output_policy: { blocked_terms: terms } })!
  const started = performance.now()
  const applied = applyPolicy(policy, text)
  const ms = performance.now() - started
  t.equal(applied.blocked, 1, 'only the last 200 characters are a term')
  t.ok(applied.text.endsWith('[blocked]'))
  t.ok(ms < 5000, `took ${Math.round(ms)} ms`)
})
