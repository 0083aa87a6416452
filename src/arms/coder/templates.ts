/**
 * The coder's offline path: parameterised templates for common computations, recognised in the
 * spec's words. Each writes real JavaScript (not the answer) whose last expression is the answer,
 * so the executor's QuickJS run computes it. First match wins; the order puts the narrow before
 * the broad ("primes below n" before "nth prime", "sum from a to b" before "sum of a list").
 *
 * ```ts
 * codeFromTemplate('Compute the 20th Fibonacci number in JavaScript')
 * // { template: 'fibonacci', code: 'function fibonacci(n) { … }\nfibonacci(20)', explanation: '…' }
 * ```
 *
 * Results past 2^53 are computed with BigInt and returned as decimal strings: JSON has no BigInt.
 */
import { type LinearExecArray, linearPattern } from '../../linear-pattern.js'
import { withDigits } from './number-words.js'
import { firstInteger, literal, numbersIn, subjectText } from './spec-values.js'

export interface TemplateCode {
  template: string
  code: string
  explanation: string
}

/** The first match and its groups: a RegExpExecArray, or a linear pattern's match. */
type Match = RegExpExecArray | LinearExecArray

interface Template {
  name: string
  matches: { exec(spec: string): Match | null }
  write(spec: string, m: Match): TemplateCode | null
}

/** Bounds that keep a template's run within the executor's time limit. */
const LIMITS = { fibonacci: 10_000, factorial: 2_000, nthPrime: 200_000, sieve: 10_000_000, range: 100_000_000, exponent: 10_000 }

// Without semicolons, a line starting with ( [ or ` would continue the line before it.
const code = (template: string, explanation: string, ...lines: string[]): TemplateCode => ({
  template,
  code: lines.map((line, i) => (i > 0 && /^[[(`]/.test(line) ? `;${line}` : line)).join('\n'),
  explanation,
})
const within = (n: number | null, min: number, max: number): n is number => n !== null && Number.isSafeInteger(n) && n >= min && n <= max

const IS_PALINDROME = linearPattern(String.raw`\bis\s+(\S+)\s+a\s+palindrome`, 'i')
const REVERSE_WORD = linearPattern(String.raw`\breverse\s+(?:the\s+)?(?:word|string)\s+(\S+)`, 'i')

const TEMPLATES: Template[] = [
  {
    name: 'primes-below',
    matches: linearPattern(String.raw`\bprimes?\b(?:\s+numbers?)?\s+(below|under|less than|smaller than|up to|not above|<=?)\s+(\d+)`, 'i'),
    write: (_, m) => {
      const n = Number(m[2]) - (/up to|not above|<=/.test(m[1]!.toLowerCase()) ? 0 : 1)
      if (!within(n, 0, LIMITS.sieve)) return null
      return code(
        'primes-below',
        `Sieve of Eratosthenes: the primes up to ${n}.`,
        'function primesUpTo(n) {',
        '  const composite = new Uint8Array(n + 1)',
        '  const primes = []',
        '  for (let i = 2; i <= n; i++) {',
        '    if (composite[i]) continue',
        '    primes.push(i)',
        '    for (let j = i * i; j <= n; j += i) composite[j] = 1',
        '  }',
        '  return primes',
        '}',
        `primesUpTo(${n})`,
      )
    },
  },
  {
    name: 'nth-prime',
    matches: linearPattern(String.raw`\b(\d+)(?:st|nd|rd|th)\s+prime\b|\bprime\s+(?:number\s+)?(?:number|no\.?|#)\s*(\d+)\b`, 'i'),
    write: (_, m) => {
      const n = Number(m[1] ?? m[2])
      if (!within(n, 1, LIMITS.nthPrime)) return null
      return code(
        'nth-prime',
        `Counts primes by trial division up to the square root until the ${n}th.`,
        'function nthPrime(n) {',
        '  let count = 0',
        '  for (let candidate = 2; ; candidate++) {',
        '    let prime = true',
        '    for (let d = 2; d * d <= candidate; d++) if (candidate % d === 0) { prime = false; break }',
        '    if (prime && ++count === n) return candidate',
        '  }',
        '}',
        `nthPrime(${n})`,
      )
    },
  },
  {
    name: 'is-prime',
    matches: linearPattern(
      String.raw`\bis\s+(\d+)\s+(?:a\s+)?prime\b|\bwhether\s+(\d+)\s+is\s+(?:a\s+)?prime\b|\b(\d+)\s+is\s+(?:a\s+)?prime\b|\bprimality\s+of\s+(\d+)`,
      'i',
    ),
    write: (_, m) => {
      const n = Number(m.slice(1).find((g) => g !== undefined))
      if (!within(n, 0, Number.MAX_SAFE_INTEGER)) return null
      return code(
        'is-prime',
        `Trial division of ${n} by 2 and the odd numbers up to its square root.`,
        'function isPrime(n) {',
        '  if (n < 2) return false',
        '  if (n % 2 === 0) return n === 2',
        '  for (let d = 3; d * d <= n; d += 2) if (n % d === 0) return false',
        '  return true',
        '}',
        `isPrime(${n})`,
      )
    },
  },
  {
    name: 'fibonacci',
    matches: /\bfib(?:onacci)?\b/i,
    write: (spec) => {
      const n = firstInteger(spec)
      if (!within(n, 0, LIMITS.fibonacci)) return null
      // F(78) is the last Fibonacci number below 2^53.
      if (n <= 78) {
        return code(
          'fibonacci',
          `Iterates F(0) = 0, F(1) = 1, F(k) = F(k-1) + F(k-2) up to F(${n}).`,
          'function fibonacci(n) {',
          '  let a = 0, b = 1',
          '  for (let i = 0; i < n; i++) [a, b] = [b, a + b]',
          '  return a',
          '}',
          `fibonacci(${n})`,
        )
      }
      return code(
        'fibonacci',
        `Iterates F(k) = F(k-1) + F(k-2) up to F(${n}) with BigInt; the result as a decimal string.`,
        'function fibonacci(n) {',
        '  let a = 0n, b = 1n',
        '  for (let i = 0; i < n; i++) [a, b] = [b, a + b]',
        '  return a',
        '}',
        `fibonacci(${n}).toString()`,
      )
    },
  },
  {
    name: 'factorial',
    // "12!" not after a word character or a dot, and not "12!=" (whether it matches is all that is read)
    matches: linearPattern(String.raw`\bfactorial\b|(?:^|[^\w.])\d+!(?:[^=]|$)`, 'i'),
    write: (spec) => {
      const n = firstInteger(spec)
      if (!within(n, 0, LIMITS.factorial)) return null
      // 18! is the last factorial below 2^53.
      const big = n > 18
      return code(
        'factorial',
        `Multiplies 1 × 2 × … × ${n}${big ? ' with BigInt; the result as a decimal string' : ''}.`,
        'function factorial(n) {',
        `  let product = ${big ? '1n' : '1'}`,
        `  for (let i = 2; i <= n; i++) product *= ${big ? 'BigInt(i)' : 'i'}`,
        '  return product',
        '}',
        `factorial(${n})${big ? '.toString()' : ''}`,
      )
    },
  },
  {
    name: 'gcd',
    matches: /\b(?:gcd|greatest common (?:divisor|factor)|highest common factor|hcf)\b/i,
    write: (spec) =>
      integers(spec, 2) &&
      code(
        'gcd',
        'Euclid: gcd(a, b) = gcd(b, a mod b), folded over the numbers.',
        'function gcd(a, b) {',
        '  a = Math.abs(a); b = Math.abs(b)',
        '  while (b !== 0) [a, b] = [b, a % b]',
        '  return a',
        '}',
        `${JSON.stringify(integers(spec, 2))}.reduce(gcd)`,
      ),
  },
  {
    name: 'lcm',
    matches: /\b(?:lcm|least common multiple|lowest common multiple)\b/i,
    write: (spec) =>
      integers(spec, 2) &&
      code(
        'lcm',
        'lcm(a, b) = |a × b| / gcd(a, b), folded over the numbers.',
        'function gcd(a, b) {',
        '  while (b !== 0) [a, b] = [b, a % b]',
        '  return Math.abs(a)',
        '}',
        'const lcm = (a, b) => (a === 0 || b === 0 ? 0 : Math.abs(a / gcd(a, b) * b))',
        `${JSON.stringify(integers(spec, 2))}.reduce(lcm)`,
      ),
  },
  {
    name: 'power',
    // the base is not after a word character or a dot: that character is read before the base
    matches: linearPattern(
      String.raw`(?:^|[^\w.])(-?\d+)\s*(?:\^|\*\*)\s*(\d+)\b|(?:^|[^\w.])(-?\d+)\s+(?:to the power of|to the|raised to(?: the)?(?: power(?: of)?)?)\s+(\d+)`,
      'i',
    ),
    write: (_, m) => {
      const base = Number(m[1] ?? m[3])
      const exponent = Number(m[2] ?? m[4])
      if (!within(exponent, 0, LIMITS.exponent) || !Number.isSafeInteger(base)) return null
      const big = Math.abs(base) > 1 && exponent * Math.log2(Math.abs(base)) >= 53
      return big
        ? code(
            'power',
            `${base} to the power ${exponent} with BigInt; the result as a decimal string.`,
            `(${base}n ** ${exponent}n).toString()`,
          )
        : code('power', `${base} to the power ${exponent}.`, `Math.pow(${base}, ${exponent})`)
    },
  },
  {
    name: 'sum-of-range',
    matches: { exec: sumOfRange },
    write: (_, m) => {
      const parity = (m[1] ?? m[5])?.toLowerCase()
      const [from, to] = m[4] !== undefined ? [1, Number(m[4])] : [Number(m[2]), Number(m[3])]
      if (!within(to - from, 0, LIMITS.range) || (parity !== undefined && m[4] !== undefined)) return null
      const keep = parity === 'even' ? ' if (i % 2 === 0)' : parity === 'odd' ? ' if (i % 2 !== 0)' : ''
      return code(
        'sum-of-range',
        `Adds the${parity ? ` ${parity}` : ''} integers from ${from} to ${to}.`,
        'let total = 0',
        `for (let i = ${from}; i <= ${to}; i++)${keep} total += i`,
        'total',
      )
    },
  },
  {
    name: 'palindrome',
    matches: /\bpalindrom/i,
    write: (spec) => {
      const text = subjectText(spec) ?? IS_PALINDROME.exec(spec)?.[1] ?? null
      if (text === null) return null
      return code(
        'palindrome',
        'Compares the letters and digits, lower-cased, with their reverse.',
        'function isPalindrome(text) {',
        '  const chars = [...text.toLowerCase()].filter((c) => /[\\p{L}\\p{N}]/u.test(c))',
        "  return chars.join('') === [...chars].reverse().join('')",
        '}',
        `isPalindrome(${literal(text)})`,
      )
    },
  },
  {
    name: 'reverse-string',
    matches: /\breverse\b/i,
    write: (spec) => {
      const text = subjectText(spec) ?? REVERSE_WORD.exec(spec)?.[1] ?? null
      if (text === null) return null
      return code(
        'reverse-string',
        'Reverses the string by code points, so characters outside the BMP stay whole.',
        `[...${literal(text)}].reverse().join('')`,
      )
    },
  },
  {
    name: 'count-words',
    matches: linearPattern(String.raw`\b(?:count|number of)\s+(?:the\s+)?words\b|\bword\s+count\b|\bhow many words\b`, 'i'),
    write: (spec) => {
      const text = subjectText(spec)
      if (text === null) return null
      return code(
        'count-words',
        'Splits on runs of white space and counts the non-empty pieces.',
        `${literal(text)}.split(/\\s+/).filter(Boolean).length`,
      )
    },
  },
  {
    name: 'sort-numbers',
    matches: /\bsort/i,
    write: (spec) => {
      const list = numbersIn(spec)
      if (list.length < 2) return null
      const descending = /\b(?:descending|decreasing|largest first|biggest first|high(?:est)? to low(?:est)?|reverse order)\b/i.test(spec)
      return code(
        'sort-numbers',
        `Sorts the numbers ${descending ? 'descending' : 'ascending'}, numerically (not as strings).`,
        `${JSON.stringify(list)}.sort((a, b) => ${descending ? 'b - a' : 'a - b'})`,
      )
    },
  },
  {
    name: 'average',
    matches: /\b(?:average|mean)\b/i,
    write: (spec) => {
      const list = numbersIn(spec)
      if (list.length === 0) return null
      return code(
        'average',
        'The sum of the numbers divided by how many there are.',
        `const numbers = ${JSON.stringify(list)}`,
        'numbers.reduce((sum, x) => sum + x, 0) / numbers.length',
      )
    },
  },
  {
    name: 'sum',
    matches: /\b(?:sum|total|add(?:\s+up)?)\b/i,
    write: (spec) => {
      const list = numbersIn(spec)
      if (list.length < 2) return null
      return code('sum', 'Adds the numbers.', `${JSON.stringify(list)}.reduce((sum, x) => sum + x, 0)`)
    },
  },
]

/** The names of the built-in templates, in the order they are tried. */
export const TEMPLATE_NAMES: readonly string[] = TEMPLATES.map((t) => t.name)

/**
 * Code for the spec from the first template that recognises it and can read its values, or null.
 * Number words are read as digits first ("the twentieth" is "the 20th"; number-words.ts).
 */
export function codeFromTemplate(written: string): TemplateCode | null {
  const spec = withDigits(written)
  for (const template of TEMPLATES) {
    const m = template.matches.exec(spec)
    if (m === null) continue
    const written = template.write(spec, m)
    if (written) return written
  }
  return null
}

/** At least `min` safe integers from the spec, or null. */
function integers(spec: string, min: number): number[] | null {
  const list = numbersIn(spec).filter((n) => Number.isSafeInteger(n))
  return list.length >= min ? list : null
}

const SUM = /\bsum\b/gi
// from a "sum" to the next one: a gap, then the range; or "the first n"
const SUM_RANGE = linearPattern(
  String.raw`^sum\b[^.]*?\b(?:(even|odd)\s+)?(?:(?:whole|natural|positive)\s+)?(?:(?:numbers|integers)\s*)?(?:from\s+)?(-?\d+)\s*(?:to|through|until|\.\.)\s*(-?\d+)|^sum\s+of\s+the\s+first\s+(\d+)\s+(?:(even|odd)\s+)?(?:natural numbers|positive integers|integers|numbers)`,
  'i',
)

/**
 * The first "sum" followed by a range before the next "sum" (or "sum of the first n"). Each "sum"
 * is tried on the text up to the next one, so the spec is read once however many it holds.
 */
function sumOfRange(spec: string): Match | null {
  const starts = [...spec.matchAll(SUM)].map((m) => m.index)
  for (const [i, start] of starts.entries()) {
    const m = SUM_RANGE.exec(spec.slice(start, starts[i + 1] ?? spec.length))
    if (m) return Object.assign(m, { index: start })
  }
  return null
}
