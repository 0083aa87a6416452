// Offline, the coder writes real JavaScript from a template for the computation the spec names:
// running it gives the answer, which the code does not contain.
import t from 'tap'

import { callCoder, run } from './coder-fixture.js'

const cases: Array<[string, unknown]> = [
  ['Compute the 20th Fibonacci number in JavaScript', 6765],
  ['fibonacci(100)', '354224848179261915075'],
  ['Calculate 10! in JavaScript', 3628800],
  ['the factorial of 25', '15511210043330985984000000'],
  ['Compute the 10th prime in JavaScript', 29],
  ['What is the 1000th prime number?', 7919],
  ['list the primes below 30', [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]],
  ['primes up to 13', [2, 3, 5, 7, 11, 13]],
  ['Is 7919 a prime?', true],
  ['check whether 1001 is prime', false],
  ['the gcd of 462 and 1071', 21],
  ['the least common multiple of 4, 6 and 10', 60],
  ['2 to the power of 10', 1024],
  ['compute 3^50', '717897987691852588770249'],
  ['the sum of the integers from 1 to 100', 5050],
  ['sum of the even numbers from 1 to 10', 30],
  ['sum of the first 10 natural numbers', 55],
  ['reverse the string "stressed"', 'desserts'],
  ['Is "A man, a plan, a canal: Panama" a palindrome?', true],
  ['is racecar a palindrome', true],
  ['count the words in: the quick  brown fox jumps', 5],
  ['sort 5, 3, 9, -1 and 4.5', [-1, 3, 4.5, 5, 9]],
  ['sort these numbers in descending order: 5, 3, 9', [9, 5, 3]],
  ['the average of 2, 4, 9', 5],
  ['the sum of 1.5, 2.5 and 6', 10],
  // number words
  ['Compute the twentieth Fibonacci number', 6765],
  ['the sum of the integers from one to one hundred', 5050],
  ['is ninety-seven a prime', true],
  ['the gcd of twelve and eighteen', 6],
  ['What is the one thousandth prime number?', 7919],
  ['reverse the string "twenty one"', 'eno ytnewt'],
]

for (const [spec, answer] of cases) {
  t.test(`${spec} → ${JSON.stringify(answer)}`, async (t) => {
    const { output } = await callCoder('generate', { spec })
    t.equal(output.source, 'template')
    t.equal(output.language, 'javascript')
    t.ok(output.explanation.length > 0)
    t.same(run(output.code), answer)
    if (typeof answer === 'number' && answer > 100) t.notMatch(output.code, String(answer), 'computed, not written in')
  })
}

t.test('strings from the spec are literals, not code', async (t) => {
  const { output } = await callCoder('generate', { spec: 'reverse the string "a\\"); process.exit(1); ("b"' })
  t.equal(typeof run(output.code), 'string')
})
