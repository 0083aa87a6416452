// A command that writes 1 GiB of NUL bytes: the executor keeps its output cap (1 MiB per stream),
// kills the command there, nothing of it keeps running, and the output is text a store can keep
// (no NUL); through the whole service, on PGlite and on PostgreSQL, the task reaches a final state
// while /api/v1/health keeps answering. (How fast health answers while the guardian screens the megabyte is the screening's
// time budget, not the sandbox's: the slowest answer is reported, not held to a bound here.)
import t from 'tap'
import { call, executor } from '../arms/executor/executor-fixture.js'
import { processesRunning } from '../arms/executor/sandboxed-processes.js'
import { FINAL, postJson, waitForTask } from '../helpers/servers.js'
import { onEachBackend } from './services.js'

const GIB = String(1024 * 1024 * 1024)

t.test('the executor cuts 1 GiB of output at 1 MiB and kills the command', async (t) => {
  let slowestTick = 0
  let last = performance.now()
  const ticker = setInterval(() => {
    const now = performance.now()
    slowestTick = Math.max(slowestTick, now - last)
    last = now
  }, 10)
  const started = performance.now()
  const out = (await call(executor(), 'shell', { command: 'head', args: ['-c', GIB, '/dev/zero'] })) as Record<string, unknown>
  clearInterval(ticker)
  t.equal(out.truncated, true, `truncated (exit ${String(out.exit_code)}, signal ${String(out.signal)})`)
  t.equal((out.stdout as string).length, 1024 * 1024, '1 MiB of NUL bytes')
  t.notOk((out.stdout as string).includes('\u0000'), 'each read as U+FFFD, which a store can keep')
  t.ok(performance.now() - started < 5_000, 'at once, not after a gigabyte')
  t.ok(slowestTick < 500, `the event loop stayed free (slowest tick ${Math.round(slowestTick)} ms)`)
  t.same(processesRunning(['/usr/bin/head', '-c', GIB, '/dev/zero']), [], 'no head left running')
})

onEachBackend('through the service: the task ends and health answers throughout', async (t, hosts) => {
  const base = hosts.orchestrator
  let slowest = 0
  let watching = true
  const statuses = new Set<number>()
  const health = (async () => {
    while (watching) {
      const started = performance.now()
      const res = await fetch(`${base}/api/v1/health`, { signal: AbortSignal.timeout(30_000) })
      statuses.add(res.status)
      await res.arrayBuffer()
      slowest = Math.max(slowest, performance.now() - started)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  })()
  const res = await postJson(`${base}/api/v1/tasks`, { goal: `Run \`head -c ${GIB} /dev/zero\`` })
  t.equal(res.status, 201)
  const task = await waitForTask(base, (await res.json()).task_id, (x) => FINAL.includes(x.status), 60_000)
  watching = false
  await health
  t.ok(FINAL.includes(task.status), task.status)
  t.match(task.plan.steps[0], { arm: 'executor', tool: 'shell' })
  t.same([...statuses], [200], `every health request answered 200 (slowest ${Math.round(slowest)} ms)`)
  t.same(processesRunning(['/usr/bin/head', '-c', GIB, '/dev/zero']), [], 'no head left running')
})
