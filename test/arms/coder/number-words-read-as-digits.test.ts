import t from 'tap'

import { withDigits } from '../../../src/arms/coder/number-words.js'

t.test('cardinals and ordinals become digits', async (t) => {
  const cases: Array<[string, string]> = [
    ['the twentieth Fibonacci number', 'the 20th Fibonacci number'],
    ['the twenty-first prime', 'the 21st prime'],
    ['the hundredth prime', 'the 100th prime'],
    ['the one hundred and twelfth prime', 'the 112th prime'],
    ['primes below one hundred and five', 'primes below 105'],
    ['two thousand three hundred and forty-five', '2345'],
    ['twelve hundred', '1200'],
    ['Seventy Seven', '77'],
    ['one million', '1000000'],
    ['sum from one to ten', 'sum from 1 to 10'],
    ['between one and fifty', 'between 1 and 50'],
    ['the gcd of twelve and eighteen', 'the gcd of 12 and 18'],
    ['the second prime', 'the 2nd prime'],
    ['someone bought a seventeenth-century tome', 'someone bought a 17th-century tome'], // not inside "someone"
  ]
  for (const [text, expected] of cases) t.equal(withDigits(text), expected, text)
})

t.test('text that is not a number, or is what a string template works on, stays as written', async (t) => {
  const kept = [
    'which one is prime', // a lone "one" that bounds no range
    'one two three', // not one number
    'a hundred', // "hundred" alone
    'thousand ten',
    'reverse "twenty one"',
    "reverse 'forty two'",
    'count the words in: twenty one apples',
    'twentieth first', // an ordinal ends a number
    'the first 10 natural numbers', // "first" before a count
    'the first twelve primes',
    'wait a second',
  ]
  for (const text of kept) t.equal(withDigits(text), text, text)
})
