// The pieces of the client that need no service: the progress line on a terminal and the plain
// lines elsewhere, text from the service made harmless to a terminal, --budget, the help's exit
// codes, and which way `ganglion keys` goes.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import type { CliError } from '../../src/cli/client.js'
import { createProgress, describe, printable } from '../../src/cli/progress.js'
import { parseBudget } from '../../src/cli/tasks.js'
import { cli } from './cli-client.js'

t.setTimeout(240_000)

function sink(isTTY: boolean, columns?: number) {
  const out = { text: '', isTTY, columns, write: (s: string) => (out.text += s) }
  return out
}

const ESC = '\u001b'
const started = { id: 6, event: 'step.started', data: { step_id: 's2', arm: 'executor', attempt: 1 } }

t.test('on a terminal: one line rewritten in place with the step, its arm and the count', async (t) => {
  const out = sink(true, 60)
  const p = createProgress(out, '7cc7c367-45bd-409a-8474-d2cfa6510f32')
  p.event({ id: 4, event: 'task.plan', data: { total_steps: 3 } })
  p.event({ id: 5, event: 'task.status', data: { status: 'running' } })
  p.event({ id: 6, event: 'step.completed', data: { step_id: 's1', status: 'completed' } })
  p.event(started)
  const last = out.text.split('\r').at(-1) ?? ''
  t.ok(last.startsWith(`${ESC}[2K`), 'erases the line before drawing it')
  t.match(last.slice(4), /^. 7cc7c367 running · step s2 \(executor\) 1\/3 · \d+\.\ds$/)
  t.notOk(out.text.includes('\n'), 'no new line while following')
  p.note('Cancelling task 7cc7c367')
  t.ok(out.text.includes('\r\u001b[2KCancelling task 7cc7c367\n'), 'a note gets a line of its own')
  p.stop()
  t.ok(out.text.endsWith('\r\u001b[2K'), 'the line is cleared at the end')

  const narrow = sink(true, 30)
  const q = createProgress(narrow, 'abcdef0123')
  q.event(started)
  q.stop()
  const widest = Math.max(...narrow.text.split('\r').map((l) => l.replace(`${ESC}[2K`, '').length))
  t.ok(widest <= 29, 'never wider than the terminal')
})

t.test('elsewhere: one plain line per event, no carriage return or escape code', async (t) => {
  const out = sink(false)
  const p = createProgress(out, 'x')
  p.event(started)
  p.event({ id: 7, event: 'budget.usage', data: { step_id: 's1', model: 'offline/offline-extractive', prompt: 100, completion: 57 } })
  p.event({ id: 8, event: 'step.failed', data: { step_id: 's2', status: 'failed', error: { code: 'SANDBOX_UNAVAILABLE' } } })
  p.stop()
  t.same(
    out.text.split('\n').map((l) => l.slice(10)),
    [
      'step s2 started on executor (attempt 1)',
      'step s1 used 157 model tokens (offline/offline-extractive)',
      'step s2 failed (SANDBOX_UNAVAILABLE)',
      '',
    ],
  )
  t.notOk(out.text.includes('\r') || out.text.includes(ESC))
})

t.test("the service's text cannot drive the terminal", async (t) => {
  const hostile = `goal${ESC}]0;owned\u0007${ESC}[2J\r\u009bdone`
  t.equal(printable(hostile), 'goal ]0;owned  [2J  done')
  const line = describe({ id: 1, event: `step.started${ESC}[31m`, data: { step_id: `s1${ESC}[2J`, arm: 'x\ry' } })
  t.notOk(line.includes(ESC) || line.includes('\r'))
})

t.test('--budget: tokens, dollars or seconds, anything else a usage error', async (t) => {
  t.same(parseBudget(['5000']), { max_tokens: 5000 })
  t.same(parseBudget(['5000tokens', '$0.25', '90s']), { max_tokens: 5000, max_cost_usd: 0.25, max_time_seconds: 90 })
  t.same(parseBudget(['1.5USD']), { max_cost_usd: 1.5 })
  for (const bad of ['lots', '-1', '0', '$', '1e9', '100000s', '0s', '5 000', `${'9'.repeat(50_000)}x`]) {
    let code: number | undefined
    try {
      parseBudget([bad])
    } catch (err) {
      code = (err as CliError).exitCode
    }
    t.equal(code, 2, bad.slice(0, 20))
  }
})

t.test('the help lists the exit codes; keys go over HTTP only when a URL is given', async (t) => {
  const help = await cli(['--help'])
  t.equal(help.code, 0)
  t.match(help.stdout, /^ {2}7 {4}could not reach the service, or it refused the credential/m)
  t.match(help.stdout, /GANGLION_URL, GANGLION_API_KEY/)

  const dataDir = mkdtempSync(join(tmpdir(), 'ganglion-cli-keys-'))
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }))
  const down = { GANGLION_URL: 'http://127.0.0.1:9', DATA_DIR: dataDir }
  const http = await cli(['keys', 'list'], down)
  t.equal(http.code, 7, 'GANGLION_URL given: over HTTP')
  t.match(http.stderr, /cannot reach the service at http:\/\/127\.0\.0\.1:9/)
  const database = await cli(['keys', 'list', '--database'], down)
  t.equal(database.code, 0, `--database: on the database (${database.stderr})`)
  t.match(database.stderr, /No API keys/)
})
