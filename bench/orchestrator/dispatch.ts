/**
 * Queue overhead per step: the time from a step becoming ready (its `step.run` job sent, `ready_at`)
 * to its start (claimed by a worker: the runner's own `dispatchLatency`), beside pg-boss's bare
 * send → handler latency on the same database in the same run. One process per database, wired as
 * src/app.ts wires it (openSql, JobQueue with ORCHESTRATOR_QUEUES, SqlTaskStore, TaskService,
 * startTaskRunner with the built-in step runner and default options), with a metrics recorder that
 * keeps every sample instead of a histogram.
 *
 * Phases, each bounded in count and time:
 *   1. reference: `--pings` jobs on a queue `bench.ping` defined like `step.run` (notify on, same
 *      lease/retry), sent at `--ping-rate`/s, worked by `queue.work` with the step workers'
 *      concurrency (`--step-workers`, 16); latency = handler start − time before `send`.
 *   2. the service: `--tasks` tasks through `TaskService.create` at `--rate`/s (open loop), each
 *      with a 5-step plan (retriever ∥ coder → executor → judge → guardian: the heuristic planner
 *      on a goal that routes to the three work arms, plus acceptance criteria), until every task is
 *      final or `--timeout` s pass. Reported: dispatch latency (ready → claimed), its pg-boss part
 *      (ready → the step.run handler entered), task end-to-end (created → final), and the SQL
 *      statements issued per task (every statement on every connection, pollers included; the
 *      idle rate measured for 2 s before the tasks is given too).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5442/obench \
 *     node --import @tapjs/typescript/import bench/orchestrator/dispatch.ts --tasks 300 --rate 20
 *
 * Options: --tasks 300, --rate 20 (tasks/s; 0 = all at once), --pings 500, --ping-rate 100,
 * --timeout 120, --only pglite|postgres, --json FILE, --step-workers 16 (startTaskRunner's stepConcurrency;
 * the default is 16, lower values show how the pg-boss fetch count follows it), --runner-connections N
 * (the runner's share of the pool, as RUNNER_CONNECTIONS; default the service's).
 */

import { writeFileSync } from 'node:fs'
import { AnswerKeys, CacheTier, Detector } from '@ganglion/reflex'
import { INTEGER_VARS } from '../../src/config/schema.js'
import { JobQueue, type QueueDefinition } from '../../src/orchestrator/queue/job-queue.js'
import { ORCHESTRATOR_QUEUES, STEP_RUN } from '../../src/orchestrator/runner/queues.js'
import type { RunnerMetrics } from '../../src/orchestrator/runner/runner-context.js'
import { startTaskRunner } from '../../src/orchestrator/runner/task-runner.js'
import { TaskService } from '../../src/orchestrator/task-service.js'
import { limitSql } from '../../src/stores/limited-sql.js'
import { MemoryCacheStore } from '../../src/stores/memory-cache-store.js'
import { openSql } from '../../src/stores/open-sql.js'
import type { Sql } from '../../src/stores/sql.js'
import { SqlTaskStore } from '../../src/stores/sql-task-store.js'
import { TieredCacheStore } from '../../src/stores/tiered-cache-store.js'
import { BuiltinStepRunner } from '../../test/fixtures/builtin-step-runner.js'
import { heuristicPlanner } from '../../test/fixtures/heuristic-planner.js'
import { arg, fmt, loadNow, machine, resetPostgres, type Summary, sleep, summarise } from './common.js'
import { countStatements, statementCounts, tally, totalOf } from './statement-counter.js'

const tasks = Number(arg('tasks', '300'))
const rate = Number(arg('rate', '20'))
const pings = Number(arg('pings', '500'))
const pingRate = Number(arg('ping-rate', '100'))
const timeoutS = Number(arg('timeout', '120'))
const only = arg('only', '')
const jsonOut = arg('json', '')
const stepWorkers = Number(arg('step-workers', '16'))
const runnerConnections = Number(arg('runner-connections', String(INTEGER_VARS.RUNNER_CONNECTIONS[2])))
const databaseUrl = process.env.DATABASE_URL
if (tasks > 2000 || pings > 5000 || timeoutS > 300) throw new Error('bounded runs only')

const GOAL = 'Find papers about rust async runtimes and write a python script that benchmarks them, then run it'
// The reference is bare pg-boss: NOTIFY wakes its workers, whatever step.run does.
const PING: QueueDefinition = { ...ORCHESTRATOR_QUEUES.find((q) => q.name === STEP_RUN)!, name: 'bench.ping', wakeOne: false }
const silent = { info() {}, warn() {}, error() {}, debug() {} }

/** Every statement sent to the database, on every connection (ours and pg-boss's), by kind. */
const statements = {
  get n(): number {
    return totalOf(statementCounts())
  },
  get byKind(): Map<string, number> {
    return new Map(Object.entries(statementCounts()))
  },
}
function countPglite(sql: Sql): void {
  if (sql.jobBackend.kind !== 'pglite') return
  type Q = {
    query: (...a: unknown[]) => Promise<unknown>
    exec: (...a: unknown[]) => Promise<unknown>
    transaction?: (fn: (tx: Q) => Promise<unknown>) => Promise<unknown>
  }
  const wrap = (db: Q): void => {
    const q = db.query.bind(db)
    const e = db.exec.bind(db)
    db.query = (...a) => {
      tally(a[0])
      return q(...a)
    }
    db.exec = (...a) => {
      tally(a[0])
      return e(...a)
    }
    if (db.transaction) {
      const t = db.transaction.bind(db)
      db.transaction = (fn) =>
        t((tx) => {
          tally('BEGIN')
          tally('COMMIT')
          wrap(tx)
          return fn(tx)
        }) // BEGIN + COMMIT
    }
  }
  wrap(sql.jobBackend.pglite as unknown as Q)
}
if (databaseUrl) countStatements()

interface DbResult {
  db: string
  load: string
  ping: Summary & { sent: number; received: number }
  dispatch: Summary
  delivery: Summary
  endToEnd: Summary
  tasks: { submitted: number; completed: number; other: Record<string, number>; seconds: number; steps: number }
  statements: { perTask: number; idlePerSecond: number; perTaskNetOfIdle: number; byKindPerTask: Record<string, number> }
}

async function runDb(db: 'pglite' | 'postgres'): Promise<DbResult> {
  if (db === 'postgres') await resetPostgres(databaseUrl!)
  const sql = await openSql({ databaseUrl: db === 'postgres' ? databaseUrl : undefined, dataDir: 'memory://' })
  countPglite(sql)
  const queue = await JobQueue.start({ sql, queues: [...ORCHESTRATOR_QUEUES, PING] })
  const detector = new Detector()
  const store = new SqlTaskStore(sql)
  const service = new TaskService({
    store,
    queue,
    detector,
    cache: new TieredCacheStore(new MemoryCacheStore(new CacheTier()), undefined),
    answerKeys: new AnswerKeys('a test secret of sixteen bytes'),
    taskTimeoutSeconds: 300,
    cacheTtlSeconds: 3600,
    quotas: { activePerTenant: 0, defaultMaxTokens: 20_000, maxTokens: 200_000, model: 'offline-extractive', price: undefined },
  })

  // 1. Reference: bare send → handler start.
  const pingLatencies: number[] = []
  await queue.work<{ sent_at: number }>(
    'bench.ping',
    async (job) => {
      pingLatencies.push(Date.now() - job.data.sent_at)
    },
    { concurrency: stepWorkers },
  )
  await sleep(500)
  const pingDeadline = Date.now() + timeoutS * 1000
  const p0 = Date.now()
  for (let i = 0; i < pings && Date.now() < pingDeadline; i++) {
    const due = p0 + (i * 1000) / pingRate
    if (due > Date.now()) await sleep(due - Date.now())
    await queue.send('bench.ping', { sent_at: Date.now() })
  }
  while (pingLatencies.length < pings && Date.now() < pingDeadline) await sleep(50)
  await queue.pgBoss.offWork('bench.ping')

  // 2. The service.
  const dispatch: number[] = []
  const delivery: number[] = []
  const metrics: RunnerMetrics = {
    stepStarted() {},
    stepFinished() {},
    taskFinished() {},
    modelTokens() {},
    dispatchLatency(seconds) {
      dispatch.push(seconds * 1000)
    },
  }
  // The pg-boss part: ready_at → the step.run handler entered (before the task read and the claim).
  const work = queue.work.bind(queue)
  queue.work = (async (name: string, handler: (job: any) => Promise<void>, options?: object) =>
    work(
      name,
      async (job: any) => {
        if (name === STEP_RUN) delivery.push(Date.now() - job.data.ready_at)
        return handler(job)
      },
      options,
    )) as typeof queue.work
  // As src/app.ts: the runner's store and queries on its share of the pool (RUNNER_CONNECTIONS).
  const runnerSql = limitSql(sql, runnerConnections)
  const runner = await startTaskRunner(
    {
      store: new SqlTaskStore(runnerSql),
      queue,
      sql: runnerSql,
      detector,
      steps: new BuiltinStepRunner(detector),
      planner: heuristicPlanner(detector),
      maxParallelArms: 4,
      metrics,
      log: silent,
    },
    { stepConcurrency: stepWorkers },
  )
  await sleep(500)
  const idle0 = statements.n
  await sleep(2000)
  const idlePerSecond = (statements.n - idle0) / 2

  const s0 = statements.n
  const kinds0 = new Map(statements.byKind)
  const t0 = Date.now()
  const ids: string[] = []
  const submitDeadline = t0 + timeoutS * 1000
  for (let i = 0; i < tasks && Date.now() < submitDeadline; i++) {
    if (rate > 0) {
      const due = t0 + (i * 1000) / rate
      if (due > Date.now()) await sleep(due - Date.now())
    }
    const created = await service.create({ goal: `${GOAL} (#${i})`, acceptance_criteria: ['the script runs'] }, { tenant: 'default' })
    ids.push(created.task.task_id)
  }
  // Wait for every task to be final.
  const deadline = t0 + timeoutS * 1000
  let counts: Record<string, number> = {}
  for (;;) {
    const { rows } = await sql.query<{ status: string; n: number | string }>('select status, count(*) as n from tasks group by status')
    counts = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]))
    const active = ['queued', 'planning', 'running', 'cancelling'].reduce((a, s) => a + (counts[s] ?? 0), 0)
    if (active === 0 || Date.now() > deadline) break
    await sleep(200)
  }
  const seconds = (Date.now() - t0) / 1000
  const used = statements.n - s0
  const byKindPerTask = Object.fromEntries(
    [...statements.byKind]
      .map(([k, v]) => [k, (v - (kinds0.get(k) ?? 0)) / Math.max(1, ids.length)] as const)
      .filter(([, v]) => v >= 0.05)
      .sort((a, b) => b[1] - a[1]),
  )
  const { rows: e2e } = await sql.query<{ ms: number | string }>(
    `select extract(epoch from (completed_at - created_at)) * 1000 as ms from tasks where completed_at is not null`,
  )
  const { rows: stepRows } = await sql.query<{ n: number | string }>('select count(*) as n from task_steps')
  const load = loadNow()

  await runner.stop()
  await queue.stop({ graceful: false, timeoutMs: 2000 })
  await sql.close()
  const { completed = 0, ...other } = counts
  return {
    db,
    load,
    ping: { ...summarise(pingLatencies), sent: pings, received: pingLatencies.length },
    dispatch: summarise(dispatch),
    delivery: summarise(delivery),
    endToEnd: summarise(e2e.map((r) => Number(r.ms))),
    tasks: { submitted: ids.length, completed, other, seconds, steps: Number(stepRows[0]?.n ?? 0) },
    statements: {
      perTask: used / ids.length,
      idlePerSecond,
      perTaskNetOfIdle: (used - idlePerSecond * seconds) / ids.length,
      byKindPerTask,
    },
  }
}

const m = machine()
console.error(`# dispatch bench: ${JSON.stringify(m)}`)
console.error(`# tasks=${tasks} rate=${rate}/s pings=${pings} ping-rate=${pingRate}/s timeout=${timeoutS}s`)
const dbs = (['pglite', 'postgres'] as const).filter((d) => (only === '' || only === d) && (d === 'pglite' || databaseUrl))
const results: DbResult[] = []
for (const db of dbs) {
  const r = await runDb(db)
  results.push(r)
  console.error(`[${db}] ${JSON.stringify(r)}`)
}

const ms = (s: Summary) => `${fmt(s.p50)} / ${fmt(s.p95)} / ${fmt(s.p99)} / ${fmt(s.max)}`
const out: string[] = []
out.push(`Machine: ${m.nproc} CPUs (${m.cpu}), Node ${m.node}, commit ${m.commit}, ${m.date}; load average at start ${m.loadavg}`)
out.push(
  `${tasks} tasks at ${rate > 0 ? `${rate}/s` : 'once'}, 5 steps each (built-in step runner, instant), maxParallelArms 4, step workers ${stepWorkers}, runner connections ${runnerConnections}; reference ${pings} pings at ${pingRate}/s.`,
)
out.push('')
out.push(
  '| db | bare send→handler ms p50 / p95 / p99 / max | step dispatch (ready→claimed) ms p50 / p95 / p99 / max | of which pg-boss (ready→handler) p50 / p95 / p99 | task end-to-end ms p50 / p95 / p99 | tasks completed / submitted | SQL statements per task (net of idle polling) | idle statements/s | load after |',
)
out.push('|---|---|---|---|---|---|---|---|---|')
for (const r of results) {
  out.push(
    `| ${r.db} | ${ms(r.ping)} (n=${r.ping.received}) | ${ms(r.dispatch)} (n=${r.dispatch.n}) | ${fmt(r.delivery.p50)} / ${fmt(r.delivery.p95)} / ${fmt(r.delivery.p99)} | ` +
      `${fmt(r.endToEnd.p50, 0)} / ${fmt(r.endToEnd.p95, 0)} / ${fmt(r.endToEnd.p99, 0)} | ${r.tasks.completed} / ${r.tasks.submitted}${Object.keys(r.tasks.other).length ? ` (${JSON.stringify(r.tasks.other)})` : ''} | ` +
      `${fmt(r.statements.perTask, 0)} (${fmt(r.statements.perTaskNetOfIdle, 0)}) | ${fmt(r.statements.idlePerSecond, 0)} | ${r.load} |`,
  )
}
for (const r of results) {
  out.push(`\nSQL statements per task by kind, ${r.db} (all connections, during the task phase):\n`)
  out.push('| statements / task | statement (first 90 characters) |')
  out.push('|---|---|')
  for (const [k, v] of Object.entries(r.statements.byKindPerTask)) out.push(`| ${fmt(v, 2)} | \`${k.replace(/\|/g, '\\|')}\` |`)
}
for (const r of results) {
  if (r.db === 'postgres')
    out.push(`\n**postgres**: step dispatch P50 ${fmt(r.dispatch.p50)} ms → target < 20 ms: ${r.dispatch.p50 < 20 ? 'MET' : 'MISSED'}`)
}
console.log(out.join('\n'))
if (jsonOut)
  writeFileSync(jsonOut, JSON.stringify({ machine: m, options: { tasks, rate, pings, pingRate, stepWorkers }, results }, null, 2))
process.exit(0)
