// Every log line is bounded, with or without a redactor: a long one is cut, marked, still JSON;
// a short one is written as pino writes it.

import pino from 'pino'
import t from 'tap'
import { createLogger } from '../src/log.js'
import { boundLine, MAX_FIELD_CHARS, MAX_LINE_CHARS } from '../src/log-bound.js'

const MIB = 1024 * 1024

function capture(): { lines: string[]; destination: { write: (line: string) => void } } {
  const lines: string[] = []
  return { lines, destination: { write: (line: string) => void lines.push(line) } }
}

function only(lines: string[]): Record<string, unknown> {
  if (lines.length !== 1) throw new Error(`${lines.length} lines`)
  const line = lines[0]!
  if (line.length > MAX_LINE_CHARS) throw new Error(`a ${line.length}-character line`)
  if (!line.endsWith('}\n')) throw new Error('not one JSON line')
  return JSON.parse(line) as Record<string, unknown>
}

t.test('a line under the bound is written byte for byte as pino writes it', async (t) => {
  const now = Date.now
  Date.now = () => 1_700_000_000_000
  t.teardown(() => {
    Date.now = now
  })
  const fields = { task_id: 't1', body: 'é"\n'.repeat(5_500), err: new Error('short') }
  const plain = capture()
  pino({ name: 'test', level: 'info' }, plain.destination).warn(fields, 'step failed')
  const bounded = capture()
  createLogger({ name: 'test', destination: bounded.destination }).warn(fields, 'step failed')
  t.ok(plain.lines[0]!.length > 25_000 && plain.lines[0]!.length <= MAX_LINE_CHARS, `${plain.lines[0]!.length} characters`)
  t.ok(bounded.lines[0] === plain.lines[0], 'the same line')
  t.equal(boundLine(plain.lines[0]!), plain.lines[0], 'the same string back')
})

t.test('a logger without a redactor cuts a megabyte message, error and field', async (t) => {
  const { lines, destination } = capture()
  const log = createLogger({ name: 'test', destination })
  log.error({ task_id: 't1', err: new Error(`boom ${'m'.repeat(MIB)}`), output: 'o'.repeat(MIB) }, `failed: ${'x'.repeat(MIB)}`)
  const entry = only(lines)
  t.equal(entry.task_id, 't1')
  t.equal(entry.level, 50)
  t.equal(entry.name, 'test')
  const err = entry.err as { type: string; message: string; stack: string }
  t.equal(err.type, 'Error')
  for (const [what, text, start] of [
    ['msg', entry.msg, 'failed: x'],
    ['err.message', err.message, 'boom m'],
    ['err.stack', err.stack, 'Error: boom m'],
  ] as const) {
    t.ok(typeof text === 'string' && text.startsWith(start), `${what} keeps its head`)
    t.match(text, / \[…\d+ characters cut…\]$/, `${what} says how much was cut`)
    t.ok((text as string).length <= MAX_FIELD_CHARS, `${what}: ${(text as string).length} characters`)
  }
  // msg is served first, so it is whole up to the field bound even though it comes last in the line.
  t.ok((entry.msg as string).length > MAX_FIELD_CHARS - 100)
  const [, cut] = /\[…(\d+) characters cut…\]$/.exec(entry.msg as string)!
  t.equal(Number(cut) + (entry.msg as string).indexOf(' […'), `failed: ${'x'.repeat(MIB)}`.length, 'the count is what went')
})

t.test('many fields, many entries and escapes stay within the line bound', async (t) => {
  const { lines, destination } = capture()
  const log = createLogger({ name: 'test', destination })
  const many = Object.fromEntries(Array.from({ length: 90 }, (_, i) => [`f${i}`, 'v'.repeat(3_000)]))
  log.warn({ many }, 'many fields')
  const entry = only(lines)
  t.equal(entry.msg, 'many fields')
  const fields = Object.keys(entry.many as object)
  t.ok(fields.length < 90, `${fields.length} fields of 90 kept`)
  const marker = (entry.many as Record<string, string>)['…'] ?? ''
  t.match(marker, /^\d+ more fields cut$/)
  t.equal(parseInt(marker, 10) + fields.length - 1, 90, 'the marker counts every field cut')
  t.same(
    fields.slice(0, -1),
    Array.from({ length: fields.length - 1 }, (_, i) => `f${i}`),
    'the first fields kept, in order',
  )

  lines.length = 0
  log.warn({ list: Array.from({ length: 90 }, () => 'w'.repeat(3_000)), after: 'gone' }, 'many entries')
  const listed = only(lines)
  t.equal(listed.msg, 'many entries')
  const list = listed.list as string[]
  t.ok(list.length < 90, `${list.length} entries of 90 kept`)
  t.match(list.at(-1), /^\[…\d+ more entries cut…\]$/)
  t.equal(listed.after, undefined, 'no room for the fields after it')
  t.match(listed['…'], /^1 more fields cut$/)

  lines.length = 0
  log.warn({ controls: '\u0001'.repeat(MIB) }, 'escapes')
  const escaped = only(lines).controls as string
  t.match(escaped, new RegExp(`^${'\u0001'}+ \\[…\\d+ characters cut…\\]$`), 'a string of six-character escapes is cut to fit too')
  t.ok(JSON.stringify(escaped).length <= MAX_FIELD_CHARS + 2)
})

t.test('a line that is not JSON is kept as a string head', async (t) => {
  const out = boundLine(`not json ${'z'.repeat(MIB)}\n`)
  t.ok(out.length <= MAX_LINE_CHARS && out.endsWith('\n'))
  t.match((JSON.parse(out) as { log_line: string }).log_line, /^not json z+ \[…\d+ characters cut…\]$/)
})

t.test('any shape of value gives a line within the bound', async (t) => {
  const { lines, destination } = capture()
  const log = createLogger({ name: 'test', destination })
  const shapes: Record<string, unknown> = {
    'short strings': Array.from({ length: 20_000 }, (_, i) => `s${i}`),
    numbers: Array.from({ length: 20_000 }, (_, i) => i * 1.5),
    nested: { a: { b: { c: [{ d: 'x'.repeat(MIB) }, 'y'.repeat(MIB)] } }, e: 'z'.repeat(MIB) },
    'long keys': Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`${i}${'k'.repeat(10_000)}`, i])),
    'non-BMP text': '😀'.repeat(MIB / 2),
  }
  for (const [name, value] of Object.entries(shapes)) {
    lines.length = 0
    log.info({ value }, name)
    const entry = only(lines)
    t.equal(entry.msg, name, `${name}: ${lines[0]!.length} characters, the message kept`)
  }
  t.notMatch(lines[0], /\\ud83d|\\ude00/, 'a surrogate pair is never split')
})
