// A database outage during a request is a 503 SERVICE_UNAVAILABLE naming the database, with
// Retry-After, not a 500; health says the database is down (within a second, even when the
// database hangs rather than refuses); once the database is back, requests succeed again. Against
// a PostgreSQL cluster of the test's own, stopped, frozen and started again.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import t from 'tap'
import { privatePostgres, skipPrivatePostgres } from '../fixtures/private-postgres.js'
import { orchestratorUrl, postJson } from '../helpers/servers.js'

t.setTimeout(180_000)

const unavailable = {
  error: { code: 'SERVICE_UNAVAILABLE', details: { field: 'database', constraint: 'must be reachable' }, request_id: String },
}

t.test('the database stopped, frozen and back', { skip: skipPrivatePostgres }, async (t) => {
  const pg = await privatePostgres(t)
  const base = await orchestratorUrl(t, { DATABASE_URL: pg.url })
  const created = await postJson(`${base}/api/v1/tasks`, { goal: 'Count the words of: one two' })
  t.equal(created.status, 201)
  const { task_id } = (await created.json()) as { task_id: string }

  const healthy = await fetch(`${base}/api/v1/health`)
  t.equal(healthy.status, 200)
  const body = await healthy.json()
  t.match(body.checks.database, { status: 'up', latency_ms: Number })
  t.match(body.checks.reflex, { status: 'up', latency_ms: Number })

  // Frozen: every process of the cluster stopped with SIGSTOP, so connections open and hang.
  const pids = clusterPids(pg.dataDir)
  for (const pid of pids) process.kill(pid, 'SIGSTOP')
  try {
    const started = Date.now()
    const hung = await fetch(`${base}/api/v1/health`)
    const took = Date.now() - started
    t.equal(hung.status, 503)
    const report = await hung.json()
    t.ok(took < 1000, `health answered in ${took} ms while the database hangs: ${JSON.stringify(report.checks)}`)
    t.equal(report.status, 'unhealthy')
    t.match(report.checks.database, { status: 'down', error: /timed out/ })
    t.equal(report.dependencies.database, 'down')
  } finally {
    for (const pid of pids) process.kill(pid, 'SIGCONT')
  }

  pg.stop()
  for (const [method, path, body] of [
    ['GET', '/api/v1/tasks', undefined],
    ['GET', `/api/v1/tasks/${task_id}`, undefined],
    ['POST', '/api/v1/tasks', { goal: 'Count the words of: three four' }],
  ] as const) {
    const res = await fetch(`${base}${path}`, {
      method,
      ...(body && { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    })
    t.equal(res.status, 503, `${method} ${path}`)
    t.equal(res.headers.get('retry-after'), '5', `${method} ${path}: Retry-After`)
    t.match(await res.json(), unavailable, `${method} ${path}`)
  }
  const down = await fetch(`${base}/api/v1/health`)
  t.equal(down.status, 503)
  t.match((await down.json()).checks.database, { status: 'down', error: 'check failed' })

  pg.start()
  let back = 0
  for (let i = 0; i < 50 && back !== 200; i++) {
    back = (await fetch(`${base}/api/v1/tasks/${task_id}`)).status
    if (back !== 200) await new Promise((r) => setTimeout(r, 200))
  }
  t.equal(back, 200, 'the same request succeeds once the database is back')
})

/** The postmaster and its children, by the pid file of the cluster's data directory. */
function clusterPids(dataDir: string): number[] {
  const postmaster = Number(readFileSync(`${dataDir}/postmaster.pid`, 'utf8').split('\n')[0])
  const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)])
    .toString()
    .trim()
    .split(/\s+/)
    .map(Number)
  return [postmaster, ...children.filter((pid) => pid > 0)]
}
