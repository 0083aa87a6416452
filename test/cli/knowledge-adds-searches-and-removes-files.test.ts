// `ganglion knowledge add|search|list|rm` against a running service, with files from a temp dir.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { startGanglion } from '../e2e/e2e-fixture.js'
import { cli } from './cli-client.js'

t.setTimeout(600_000)

t.test('knowledge add, search, list and rm', async (t) => {
  const url = await startGanglion(t)
  const env = { GANGLION_URL: url }
  const dir = mkdtempSync(join(tmpdir(), 'ganglion-cli-knowledge-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const runbook = join(dir, 'runbook.md')
  writeFileSync(runbook, '# Rotating the database password\n\nAsk the on-call engineer to rotate the quarterly credentials.\n')
  const notes = join(dir, 'notes.txt')
  writeFileSync(notes, 'Tulips bloom in spring in the northern hemisphere.\n')

  const added = await cli(['knowledge', 'add', runbook, notes, '--json'], env)
  t.equal(added.code, 0, added.stderr)
  const docs = JSON.parse(added.stdout).documents as Array<{ document_id: string; title: string; chunks: number }>
  t.same(
    docs.map((d) => d.title),
    ['runbook.md', 'notes.txt'],
    'titled with the file names, in order',
  )
  const [first, second] = docs.map((d) => d.document_id)

  const search = await cli(['knowledge', 'search', 'rotate the database password'], env)
  t.equal(search.code, 0, search.stderr)
  t.match(search.stdout.split('\n')[0], new RegExp(`^\\d\\.\\d{4}  ${first}  runbook\\.md$`), 'the runbook first')
  const json = await cli(['knowledge', 'search', '--json', '--limit', '1', 'tulips'], env)
  t.equal(JSON.parse(json.stdout).results.length, 1, '--limit is k')

  const list = await cli(['knowledge', 'list'], env)
  t.match(list.stdout, /^ID +CHUNKS +CREATED +TITLE\n/)
  t.equal(list.stdout.trim().split('\n').length, 3)

  const rm = await cli(['knowledge', 'rm', first!, second!], env)
  t.equal(rm.code, 0, rm.stderr)
  t.equal(rm.stdout, `Deleted document ${first}\nDeleted document ${second}\n`)
  const again = await cli(['knowledge', 'rm', first!], env)
  t.equal(again.code, 1, 'a document that is gone exits 1')
  t.match(again.stderr, /^error: NOT_FOUND: /m)
  const none = await cli(['knowledge', 'search', 'rotate the database password'], env)
  t.equal(none.code, 0)
  t.equal(none.stdout, '')
  t.match(none.stderr, /No matches/)
})

t.test('files that are missing, empty or binary are refused before any request', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ganglion-cli-knowledge-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'empty.txt'), '  \n')
  writeFileSync(join(dir, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d]))
  // No service at this URL: a refusal here cannot have come from one.
  const env = { GANGLION_URL: 'http://127.0.0.1:9' }
  for (const [file, reason] of [
    ['missing.txt', /ENOENT/],
    ['empty.txt', /empty/],
    ['image.png', /not a text file/],
  ] as const) {
    const r = await cli(['knowledge', 'add', join(dir, file)], env)
    t.equal(r.code, 2, file)
    t.match(r.stderr, reason)
  }
  const bad = await cli(['knowledge', 'search', 'x', '--limit', '51'], env)
  t.equal(bad.code, 2)
})
