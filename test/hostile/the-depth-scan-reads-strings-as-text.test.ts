// The depth of a body is counted over its bytes in one pass, before it is parsed: brackets in
// strings are text, escaped quotes do not end a string, and the field named for a refused body is
// the path of the container that passed the limit, keys decoded.
import t from 'tap'
import { fieldAt, scanJson } from '../../src/http/json-depth.js'

const scan = (text: string, max: number) => scanJson(Buffer.from(text), max)

t.test('nesting is counted outside strings only', async (t) => {
  t.equal(scan('[[1]]', 2).tooDeepAt, -1, 'two levels within two')
  t.equal(scan('[[[1]]]', 2).tooDeepAt, 2, 'the third bracket passes two')
  t.equal(scan('{"a":[{"b":1},{"c":2}]}', 3).tooDeepAt, -1, 'siblings do not add up')
  t.equal(scan('["[[[[", "{{{{"]', 1).tooDeepAt, -1, 'brackets in strings are text')
  t.equal(scan('["\\"[[[", 1]', 1).tooDeepAt, -1, 'an escaped quote does not end the string')
  t.equal(scan('["\\\\", [[1]]]', 2).tooDeepAt, 8, 'an escaped backslash does, and the count resumes')
  t.equal(scan('["é", [[1]]]', 2).tooDeepAt, 8, 'multi-byte characters are skipped byte by byte')
})

t.test('escapes that can spell a NUL or a surrogate are noticed', async (t) => {
  t.equal(scan('{"a":"\\u0041\\n"}', 8).oddEscapes, false, 'other escapes are not')
  t.equal(scan('{"a":"\\u0000"}', 8).oddEscapes, true, 'a NUL')
  t.equal(scan('{"a":"\\uD800"}', 8).oddEscapes, true, 'a surrogate, upper case')
  t.equal(scan('{"a\\udc00":1}', 8).oddEscapes, true, 'in a key')
  t.equal(scan('{"a":"\\\\u0000"}', 8).oddEscapes, false, 'an escaped backslash before u0000 is text')
})

t.test('the field is the path of the container that passed the limit', async (t) => {
  const at = (text: string, max: number) => fieldAt(Buffer.from(text), scan(text, max).tooDeepAt)
  t.equal(at('[[1]]', 1), '[0]')
  t.equal(at('{"a":{"b":[0,[1]]}}', 3), 'a.b[1]')
  t.equal(at('{"x":1,"a\\"b":{"c":[{"d":1},{"e":{}}]}}', 4), 'a"b.c[1].e', 'keys decoded, earlier siblings skipped')
  t.equal(at('{"s":"[{,","t":[[[]]]}', 2), 't[0]', 'brackets and commas in strings are text')
  t.equal(at('[[1]]', 0), 'body', 'the body itself')
  const long = `{"${'k'.repeat(300)}":{}}`
  t.equal(at(long, 1), `${'k'.repeat(256)}…`, 'a long path is cut')
})
