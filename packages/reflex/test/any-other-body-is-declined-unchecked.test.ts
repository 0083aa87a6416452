import t from 'tap'
import { answered, body, endpointWith } from './fixtures/reflex.js'

const text = 'Mail ada@example.com about the report.'

/** Bodies the endpoint leaves to the caller's own parsing and validation. */
const declined: Array<[why: string, bytes: Buffer]> = [
  ['empty', body('')],
  ['whitespace', body('   ')],
  ['not an object', body(['text', 'u1'])],
  ['null', body('null')],
  ['missing text', body({ user_id: 'u1' })],
  ['an unknown field', body({ text, user_id: 'u1', extra: 1 })],
  ['a repeated text', body(`{"text":"a","user_id":"u1","text":"b"}`)],
  ['a repeated user_id', body(`{"text":"a","user_id":"u1","user_id":"u1"}`)],
  ['a repeated flag', body(`{"text":"a","user_id":"u1","use_cache":true,"use_cache":true}`)],
  ['a text that is a number', body({ text: 5, user_id: 'u1' })],
  ['a user_id that is a number', body({ text, user_id: 5 })],
  ['a flag that is a string', body({ text, user_id: 'u1', check_pii: 'false' })],
  ['a flag that is null', body({ text, user_id: 'u1', use_cache: null })],
  ['a flag that is a number', body({ text, user_id: 'u1', check_injection: 0 })],
  ['an escaped key', body(`{"te\\u0078t":"a","user_id":"u1"}`)],
  ['a lone surrogate escape', body(`{"text":"a \\ud800 b","user_id":"u1"}`)],
  ['invalid UTF-8', Buffer.concat([body('{"text":"a '), Buffer.from([0xff, 0xfe]), body('","user_id":"u1"}')])],
  ['a raw control character', body('{"text":"a\tb","user_id":"u1"}')],
  ['an empty text', body({ text: '', user_id: 'u1' })],
  ['an empty user_id', body({ text, user_id: '' })],
  ['a text over 100,000 characters', body({ text: 'a'.repeat(100_001), user_id: 'u1' })],
  ['a user_id over 256 characters', body({ text, user_id: 'u'.repeat(257) })],
  ['trailing garbage', body(`${JSON.stringify({ text, user_id: 'u1' })} x`)],
  ['a second document', body(`${JSON.stringify({ text, user_id: 'u1' })}{}`)],
  ['a trailing comma', body(`{"text":"a","user_id":"u1",}`)],
  ['a truncated body', body(`{"text":"a","user_id":"u1"`)],
  ['single quotes', body(`{'text':'a','user_id':'u1'}`)],
]

t.test('a body other than the usual one is declined, and nothing is checked or looked up', async (t) => {
  const { detector, cache, ask } = endpointWith()
  for (const [why, bytes] of declined) t.equal(ask(bytes), undefined, why)
  t.equal(detector.stats().checks, 0)
  t.match(cache.stats(), { hits: 0, misses: 0 })
})

t.test('the same bodies, well formed, are answered', async (t) => {
  const { ask } = endpointWith()
  const taken: Array<[string, unknown]> = [
    ['the usual body', { text, user_id: 'u1' }],
    ['no user_id', { text }],
    ['all three flags', { text, user_id: 'u1', check_pii: false, check_injection: true, use_cache: false }],
    ['a text of 100,000 characters', { text: 'a'.repeat(100_000), user_id: 'u1' }],
    ['a user_id of 256 characters', { text, user_id: 'u'.repeat(256) }],
    ['escapes in the text', { text: 'a\tb "c" \\ \u0000 😀 \ud83d\ude00', user_id: 'u1' }],
    ['fields in any order', { use_cache: true, user_id: 'u1', text }],
  ]
  for (const [why, value] of taken) t.ok(ask(body(value)), why)
  const spaced = body(' {\n "text" : "a" ,\t"user_id" : "u1" }\r\n')
  t.ok(ask(spaced), 'JSON whitespace around everything')
  const escaped = answered(ask(body('{"text":"\\u0041\\n\\ud83d\\ude00\\/","user_id":"\\u00fc"}')))
  t.equal(JSON.parse(escaped.body.toString()).redacted_text, 'A\n😀/', 'escapes are read as JSON.parse reads them')
})

// The endpoint bounds the text in UTF-8 bytes, which are never fewer than its characters: a text
// within 100,000 characters but beyond 100,000 bytes is left to the caller's validator too.
t.test('a text over 100,000 UTF-8 bytes is declined, however few its characters', async (t) => {
  const { ask } = endpointWith()
  t.equal(ask(body({ text: 'é'.repeat(50_001), user_id: 'u1' })), undefined, '50,001 characters, 100,002 bytes')
  t.ok(ask(body({ text: 'é'.repeat(50_000), user_id: 'u1' })), '100,000 bytes')
})
