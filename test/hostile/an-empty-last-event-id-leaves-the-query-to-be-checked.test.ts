// The schema-driven fuzz (test/fuzz/run.sh) sent `Last-Event-ID:` empty with
// `?last_event_id=-3.0512363915250126e-226` and got the stream from the start: the empty header
// was read as "no resume point" and the query never looked at. An empty header now counts as
// absent, so the query is read and checked, and a bad one is a 400 naming `last_event_id`.
// The fuzz then sent the empty header alone, which openapi.yaml called an integer: the document
// now says what the route reads, up to 15 digits, empty being the start.
import { readFileSync } from 'node:fs'
import YAML from 'yaml'
import { postJson } from '../helpers/servers.js'
import { onEachBackend, refusal } from './services.js'

const CONSTRAINT = 'must be a non-negative integer event id'
const doc = YAML.parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8'))

onEachBackend('an empty Last-Event-ID leaves the query to be checked', async (t, { orchestrator }) => {
  const created = await postJson(`${orchestrator}/api/v1/tasks`, { goal: 'Compute the 20th Fibonacci number' })
  const { task_id } = (await created.json()) as { task_id: string }
  const events = `${orchestrator}/api/v1/tasks/${task_id}/events`

  const fuzzed = await fetch(`${events}?last_event_id=-3.0512363915250126e-226`, { headers: { 'Last-Event-ID': '' } })
  t.same(
    await refusal(fuzzed),
    { status: 400, code: 'VALIDATION_ERROR', field: 'last_event_id', constraint: CONSTRAINT },
    'the request the fuzz sent',
  )

  const queryAlone = await fetch(`${events}?last_event_id=abc`)
  t.same(
    await refusal(queryAlone),
    { status: 400, code: 'VALIDATION_ERROR', field: 'last_event_id', constraint: CONSTRAINT },
    'the query alone',
  )

  const header = await fetch(`${events}?last_event_id=abc`, { headers: { 'Last-Event-ID': '-1' } })
  t.same(
    await refusal(header),
    { status: 400, code: 'VALIDATION_ERROR', field: 'Last-Event-ID', constraint: CONSTRAINT },
    'a header names itself',
  )

  const unknown = await fetch(`${orchestrator}/api/v1/tasks/nope/events?last_event_id=1`, { headers: { 'Last-Event-ID': '' } })
  t.equal(unknown.status, 404, 'a task that does not exist')

  const resumed = await fetch(`${events}?last_event_id=1`, { headers: { 'Last-Event-ID': '' } })
  t.equal(resumed.status, 200)
  const text = await resumed.text()
  t.notMatch(text, /^id: 1$/m, 'the stream resumes after the query id')
  t.match(text, /^id: 2$/m)

  const parameters = doc.paths['/api/v1/tasks/{task_id}/events'].parameters as Array<{ name: string; schema: { pattern: string } }>
  for (const name of ['Last-Event-ID', 'last_event_id']) {
    const pattern = new RegExp(parameters.find((p) => p.name === name)?.schema.pattern ?? '$.')
    t.ok(pattern.test(''), `the document takes an empty ${name}`)
    t.notOk(pattern.test('1'.repeat(16)), `and no more than the 15 digits the route reads`)
  }
  const fromTheStart = await fetch(events, { headers: { 'Last-Event-ID': '' } })
  t.equal(fromTheStart.status, 200, 'the empty header the fuzz sent')
  t.match(await fromTheStart.text(), /^id: 1$/m, 'streams from the start')
})
