// The worst inputs we could build, submitted together to one process running every arm in itself,
// on PGlite and (DATABASE_URL) PostgreSQL: goals built for backtracking patterns with long criteria, 500 long blocked terms over
// a 1 MB output, a goal of about 1 MB, 64 levels of nesting in a body at the size limit. Health
// is asked every 100 ms meanwhile and must answer each time within a second; every task must
// reach a final state. The lag shows on /metrics.
import { FINAL, waitForTask } from '../helpers/servers.js'
import { onEachBackend, postRaw } from './services.js'

const GOALS = [
  `run a${' --b'.repeat(34)}`,
  `run a${' --b'.repeat(2_400)} on`,
  `run${' --run'.repeat(1_600)}`,
  'search '.repeat(1_400),
  'compute '.repeat(1_200),
  'sum '.repeat(2_400),
  `count the words of${'\t'.repeat(9_000)}x`,
  '“‘“'.repeat(3_000),
  `look up x in the knowledge base${' ,and'.repeat(1_800)} summarise`,
]
const CRITERIA = [
  `the final${'\t'.repeat(1_980)}`,
  `exit code${' '.repeat(1_980)}x`,
  `the output contains${' '.repeat(1_900)}\nx`,
  `${'!'.repeat(1_999)}x`,
]
const TERMS = Array.from({ length: 500 }, (_, i) => `${'term'.repeat(45)}${i} x`)

/** `{a: {a: … leaf}}`, `levels` objects deep. */
function nested(levels: number, leaf: unknown): unknown {
  return levels === 0 ? leaf : { a: nested(levels - 1, leaf), b: 'x' }
}

/** Asks for health every 100 ms until stopped; every answer's time in milliseconds. */
function watchHealth(base: string): { stop: () => Promise<number[]> } {
  let running = true
  const times: number[] = []
  const loop = (async () => {
    while (running) {
      const started = performance.now()
      const res = await fetch(`${base}/api/v1/health`, { signal: AbortSignal.timeout(10_000) })
      await res.arrayBuffer()
      times.push(performance.now() - started)
      await new Promise((r) => setTimeout(r, 100))
    }
  })()
  return {
    stop: async () => {
      running = false
      await loop
      return times
    },
  }
}

onEachBackend('health answers within a second while the worst inputs are processed', async (t, hosts) => {
  const base = hosts.orchestrator
  // The bodies are written before the watch starts: this process is the service's too.
  const bodies = [
    ...GOALS.map((goal) => JSON.stringify({ goal, acceptance_criteria: CRITERIA })),
    JSON.stringify({
      goal: "evaluate `'word term '.repeat(95000)`",
      constraints: { output_policy: { blocked_terms: TERMS } },
      acceptance_criteria: ['the output contains word'],
    }),
    // 64 levels, the body's own counted, and 60 notes of 15 KB: about 1 MB in all
    JSON.stringify({
      goal: 'say hi',
      context: nested(62, 'leaf'),
      metadata: { notes: Array.from({ length: 60 }, (_, i) => `${i} ${'note '.repeat(3_000)}`) },
    }),
  ]
  const tooLongBody = JSON.stringify({ goal: `run a${' --b'.repeat(249_000)}` })
  const health = watchHealth(base)

  const submitted = await Promise.all(bodies.map((body) => postRaw(`${base}/api/v1/tasks`, body)))
  const tooLong = await postRaw(`${base}/api/v1/tasks`, tooLongBody)
  t.equal(tooLong.status, 400, 'the 1 MB goal is refused')
  await tooLong.arrayBuffer()

  const ids: string[] = []
  for (const res of submitted) {
    const body = (await res.json()) as { task_id?: string }
    t.equal(res.status, 201, JSON.stringify(body).slice(0, 100))
    if (body.task_id) ids.push(body.task_id)
  }
  for (const id of ids) {
    const task = await waitForTask(base, id, (x) => FINAL.includes(x.status), 90_000)
    t.ok(FINAL.includes(task.status), `${id}: ${task.status}`)
  }

  const times = await health.stop()
  const slowest = Math.max(...times)
  t.ok(times.length > 10, `${times.length} health answers`)
  t.ok(slowest < 1_000, `slowest health answer ${Math.round(slowest)} ms`)

  const metrics = await (await fetch(`${base}/metrics`)).text()
  for (const name of [
    'ganglion_nodejs_eventloop_lag_seconds',
    'ganglion_nodejs_eventloop_lag_max_seconds',
    'ganglion_nodejs_eventloop_lag_p99_seconds',
  ])
    t.match(metrics, new RegExp(`^${name} \\d`, 'm'), `${name} on /metrics`)
})
