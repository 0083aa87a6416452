// SIGTERM drains what it can and ends the process by SHUTDOWN_GRACE_SECONDS, even with a step
// running that would outlast it: the real process, from dist/, with a task in flight.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { startGanglionProcess } from '../fixtures/ganglion-process.js'
import { freePort } from '../helpers/free-port.js'
import { postJson } from '../helpers/servers.js'

const GRACE_SECONDS = 2
/** Time past the grace a loaded machine may take to run the timer and exit. */
const MARGIN_MS = 3_000

function tempDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'ganglion-grace-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

t.test('a step that outlasts the grace does not keep the process alive', async (t) => {
  const service = await startGanglionProcess(['orchestrator'], await freePort(), {
    DATA_DIR: tempDir(t),
    SHUTDOWN_GRACE_SECONDS: String(GRACE_SECONDS),
  })
  t.teardown(() => service.stop())
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    service.child.once('exit', (code, signal) => resolve({ code, signal })),
  )

  // A script that never ends runs until the executor's 5 s limit, longer than the grace.
  const res = await postJson(`${service.url}/api/v1/tasks`, { goal: 'evaluate `for (;;) {}`' })
  t.equal(res.status, 201)
  const { task_id } = (await res.json()) as { task_id: string }
  const until = Date.now() + 20_000
  for (;;) {
    const task = (await (await fetch(`${service.url}/api/v1/tasks/${task_id}`)).json()) as { plan?: { steps: Array<{ status: string }> } }
    if (task.plan?.steps.some((s) => s.status === 'running')) break
    if (Date.now() > until) t.fail(`no step started: ${JSON.stringify(task)}`)
    await new Promise((r) => setTimeout(r, 100))
  }

  const started = performance.now()
  service.child.kill('SIGTERM')
  const { code, signal } = await exited
  const took = performance.now() - started
  t.equal(signal, null, 'ended by itself, not by a signal')
  t.equal(code, 1, 'exit code 1: the drain did not finish')
  t.ok(took < GRACE_SECONDS * 1000 + MARGIN_MS, `exited ${Math.round(took)} ms after SIGTERM (grace ${GRACE_SECONDS} s)`)
  t.match(service.output(), 'shutdown passed its grace period: exiting')
})
