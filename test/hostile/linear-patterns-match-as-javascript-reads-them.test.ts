// Patterns over client text that the ReDoS check cannot decide in time run on the Rust regex
// engine (src/linear-pattern.ts). Each one the judge, coder and planner compile is run here on the
// same texts by JavaScript's engine too: the match, its index and every group must agree. The
// patterns that replaced a look-behind by reading one character more are compared with the
// look-behind form they replaced.
import t from 'tap'

import '../../src/arms/judge/criteria.js'
import '../../src/arms/coder/templates.js'
import '../../src/arms/planner/goal-intents.js'
import { codeFromTemplate } from '../../src/arms/coder/templates.js'
import { translateCriterion } from '../../src/arms/judge/criteria.js'
import { readIntents } from '../../src/arms/planner/goal-intents.js'
import { linearPattern, linearPatterns } from '../../src/linear-pattern.js'

const TEXTS = [
  'The output contains 6765',
  'the final answer should contain the text "hello world"',
  'Output does not contain "password"',
  'no mention of secrets',
  'the result equals 42',
  'The result is exactly "ok"',
  'its value evaluates to -3.5',
  'exit code is 0',
  'The command exits with status 2',
  'output is valid JSON',
  'the response must be json',
  'The output matches the regex /^[a-z]+$/i',
  'summary is at most 200 characters',
  'the text has no fewer than 3 words long',
  'The output must be non-empty',
  'A summary of the article',
  'Is 97 a prime? whether 13 is prime; 7 is a prime; primality of 21',
  'compute 12! and the factorial of 5; x3!=4 and 3.5!',
  'Compute 2^10, -3 ** 3, 5 to the power of 3, 7 raised to the power of 2, x2^3',
  'sum of even numbers from 1 to 10; the sum of the first 5 odd numbers',
  'run wc -l on this text: a\nb',
  'please run `sort -r` with: x',
  'count the number of words in the following text: one two',
  'redact all personal data from this text: Ada',
  'Fetch https://example.com/a?b=1. then get the page at http://x.test/',
  'search the knowledge base for pricing, look up refunds in our kb',
  'write some JavaScript code that adds; using js, compute 2+2',
  'primes below 100; prime numbers up to 50; primes <= 7',
  'the 10th prime, prime number no. 5, prime #7',
  'is racecar a palindrome? reverse the word stressed, reverse string abc',
  'count the words; word count; how many words',
  'validate that it works and check whether it runs, then summarise; give me a summary',
  '  \t tabs\u00a0and\u2028lines\r\nand ſum K \ufeff end ',
  'Ünïcödé résumé — naïve ß ΣΊΣΥΦΟΣ 😀 sum 1 to 3',
]

/** `text` quoted in ASCII: a line separator inside a message would break the TAP stream. */
const label = (text: string) => JSON.stringify(text).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)

t.test('every linear pattern gives what JavaScript gives', async (t) => {
  t.ok(linearPatterns.length >= 15, `${linearPatterns.length} patterns`)
  // the three that read the character before their start are compared below instead
  const plain = linearPatterns.filter((p) => !p.source.includes('(?:^|[^') && !p.source.startsWith('^sum'))
  for (const pattern of plain) {
    const js = new RegExp(pattern.source, pattern.flags.replace('g', ''))
    for (const text of TEXTS) {
      const a = pattern.exec(text)
      const b = js.exec(text)
      t.same(
        a === null ? null : { index: a.index, groups: [...a] },
        b === null ? null : { index: b.index, groups: [...b] },
        `/${pattern.source}/ on ${label(text)}`,
      )
      const all = pattern.execAll(text).map((m) => ({ index: m.index, groups: [...m] }))
      const jsAll = [...text.matchAll(new RegExp(pattern.source, `${pattern.flags}g`))].map((m) => ({ index: m.index, groups: [...m] }))
      t.same(all, jsAll, `all of /${pattern.source}/ on ${label(text)}`)
    }
  }
})

t.test('a pattern that reads the character before its start finds what the look-behind found', async (t) => {
  const pairs: Array<[string, string]> = [
    [String.raw`\bfactorial\b|(?:^|[^\w.])\d+!(?:[^=]|$)`, String.raw`\bfactorial\b|(?<![\w.])\d+!(?!=)`],
    [
      String.raw`(?:^|[^\w.])(-?\d+)\s*(?:\^|\*\*)\s*(\d+)\b|(?:^|[^\w.])(-?\d+)\s+(?:to the power of|to the|raised to(?: the)?(?: power(?: of)?)?)\s+(\d+)`,
      String.raw`(?<![\w.])(-?\d+)\s*(?:\^|\*\*)\s*(\d+)\b|(?<![\w.])(-?\d+)\s+(?:to the power of|to the|raised to(?: the)?(?: power(?: of)?)?)\s+(\d+)`,
    ],
  ]
  const texts = [...TEXTS, '12!', 'a1!', '.5!', '-2^3', 'x-2^3', ' -2 ** 3', '2^3 and 4^5', '1.5^2', '(3)^2']
  for (const [linear, lookBehind] of pairs) {
    const pattern = linearPattern(linear, 'i')
    const js = new RegExp(lookBehind, 'i')
    for (const text of texts) {
      const a = pattern.exec(text)
      const b = js.exec(text)
      t.same(a === null ? null : a.slice(1), b === null ? null : b.slice(1), `groups of ${lookBehind} on ${label(text)}`)
    }
  }
})

t.test('the judge, coder and planner read the same texts as before', async (t) => {
  t.match(translateCriterion('The output contains 6765'), { type: 'contains', value: '6765' })
  t.match(translateCriterion('exit code is 0.'), { type: 'exit_code', equals: 0 })
  t.match(translateCriterion('The output matches the regex /^[a-z]+$/i'), { type: 'regex', pattern: '^[a-z]+$', flags: 'i' })
  t.match(translateCriterion('summary is under 10 words'), { type: 'max_length', value: 9, unit: 'words' })
  t.equal(translateCriterion('The summary is accurate'), undefined)
  t.match(codeFromTemplate('Compute 2 to the power of 10'), { template: 'power' })
  t.match(codeFromTemplate('Is 97 a prime number?'), { template: 'is-prime' })
  t.match(codeFromTemplate('sum of 1, 2 and 3, then the sum of the integers from 1 to 100'), { template: 'sum-of-range' })
  t.match(codeFromTemplate('What is 10!?'), { template: 'factorial' })
  t.match(readIntents('Please run wc -l on this text: a\nb'), [{ kind: 'shell', command: 'wc', args: ['-l'], at: 7 }])
  t.match(readIntents('x=run sort on: a'), [])
  t.match(readIntents('search for refunds in the knowledge base'), [{ kind: 'search', query: 'refunds' }])
})

t.test('a goal built to make a backtracking engine stall is read at once', async (t) => {
  const started = performance.now()
  readIntents(`run a${' --b'.repeat(50_000)}`)
  readIntents(`search ${' '.repeat(200_000)}x`)
  translateCriterion(`the output ${'should '.repeat(20_000)}contain x`)
  codeFromTemplate(`sum ${'sum '.repeat(20_000)}`)
  t.ok(performance.now() - started < 5000, `${Math.round(performance.now() - started)} ms`)
})
