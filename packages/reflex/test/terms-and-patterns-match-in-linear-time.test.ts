import { LinearRegex, REFLEX_ERRORS, TermMatcher } from '@ganglion/reflex'
import t from 'tap'

const as = <T>(value: unknown): T => value as T

t.test('a term matcher gives UTF-16 offsets of whole-word, case-folded matches', async (t) => {
  const terms = new TermMatcher(['Project Falcon', 'project'])
  const text = '😀 PROJECT  falcon, a project, category, projects'
  const found = terms.find(text)
  t.same(
    found.map(({ start, end }) => text.slice(start, end)),
    ['PROJECT  falcon', 'project'],
  )
  t.same(found[0], { start: 3, end: 18 })
  t.same(new TermMatcher([]).find(text), [])
})

t.test('a lone surrogate keeps the offsets after it', async (t) => {
  const text = 'a\ud800 secret'
  t.same(new TermMatcher(['secret']).find(text), [{ start: 3, end: 9 }])
})

t.test('terms and texts that are not strings are invalid arguments', async (t) => {
  const coded = { name: 'ReflexError', code: REFLEX_ERRORS.invalidArgument }
  t.throws(() => new TermMatcher(as('secret')), coded)
  t.throws(() => new TermMatcher(as(['ok', 5])), coded)
  t.throws(() => new TermMatcher(['ok']).find(as(null)), coded)
  t.throws(() => new LinearRegex(as(1)), coded)
  t.throws(() => new LinearRegex('a').exec(as({})), coded)
})

t.test('a linear regex gives the first match and its groups', async (t) => {
  const exit = new LinearRegex(String.raw`(?i)^exit\s+code\s+(\d+)$|^(ok)$`)
  t.same([...exit.exec('Exit code 3')!], ['Exit code 3', '3', undefined])
  t.equal(exit.exec('Exit code 3')!.index, 0)
  t.same([...exit.exec('ok')!], ['ok', undefined, 'ok'])
  t.equal(exit.exec('exit code'), null)
  t.equal(exit.test('EXIT CODE 12'), true)
})

t.test('every match of a linear regex, with its UTF-16 index', async (t) => {
  const found = new LinearRegex('x([0-9])').execAll('😀x1 x2 x')
  t.same(
    found.map((m) => [m.index, ...m]),
    [
      [2, 'x1', '1'],
      [5, 'x2', '2'],
    ],
  )
  t.same(new LinearRegex('y').execAll('x'), [])
})

t.test('look-around and back-references are refused as invalid options', async (t) => {
  const invalid = { name: 'ReflexError', code: REFLEX_ERRORS.invalidOption }
  t.throws(() => new LinearRegex('(?<!a)b'), invalid)
  t.throws(() => new LinearRegex(String.raw`(a)\1`), invalid)
  t.throws(() => new LinearRegex('('), invalid)
})

t.test('a nested quantifier over a long text takes linear time', async (t) => {
  const text = `${'a'.repeat(1_000_000)}!`
  const started = performance.now()
  t.equal(new LinearRegex('^(a+)+$').test(text), false)
  t.ok(performance.now() - started < 2000)
})
