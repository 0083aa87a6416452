/**
 * Task submission throughput: `POST /api/v1/tasks` through the real HTTP server, beside pg-boss's
 * bare `send` on the same database in the same run.
 *
 * For each database (PGlite in memory always; PostgreSQL when DATABASE_URL is set) and each round:
 *   1. reference: bare-send.ts in a child process, `--concurrency` loops of `send`, `--duration` s;
 *   2. the service: server.ts in a child process (start(config, {orchestrator:true}): API, runner,
 *      pg-boss, built-in steps), every RATE_LIMIT_* at 0 (no limit) so
 *      no request is refused; autocannon in this process, `--concurrency` connections, one request
 *      in flight each, every body a distinct goal (a counter), `--warmup` s then `--duration` s.
 * Each measurement starts on an empty database. The service's task runner keeps running while the
 * load runs (it plans and executes the submitted tasks: that is the service as deployed).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5442/obench \
 *     node --import @tapjs/typescript/import bench/orchestrator/submit.ts --rounds 2 --duration 10 --concurrency 32
 *
 * Options: --rounds 2, --duration 10, --warmup 2, --concurrency 32, --port 18200, --only pglite|postgres,
 * --prof DIR (the server writes a --cpu-prof profile there), --no-runner (the API without the task runner: api-server.ts), --with-tx (also the bare send wrapped in one of our transactions), --json FILE (raw results),
 * --statements (PostgreSQL: the server counts its SQL statements by kind; reported per accepted task, with the tasks the runner finished in the window).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { createInterface } from 'node:readline'
import { NO_RATE_LIMITS } from '../no-rate-limits.js'
import { arg, countRows, cpuSeconds, flag, fmt, loadNow, machine, resetPostgres, sleep } from './common.js'
import { diffCounts, totalOf } from './statement-counter.js'

// autocannon ships no types; the part used here.
interface CannonResult {
  '2xx': number
  non2xx: number
  errors: number
  timeouts: number
  duration: number
  latency: { p50: number; p90: number; p99: number; max: number; average: number }
}
type Autocannon = ((opts: object, cb: (err: Error | null, res: CannonResult) => void) => unknown) & {
  track(instance: unknown, opts: object): void
}
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon

const rounds = Number(arg('rounds', '2'))
const durationS = Number(arg('duration', '10'))
const warmupS = Number(arg('warmup', '2'))
const concurrency = Number(arg('concurrency', '32'))
const port = Number(arg('port', '18200'))
const only = arg('only', '')
const withTx = flag('with-tx')
const jsonOut = arg('json', '')
const profDir = arg('prof', '')
const countSql = flag('statements')
// --no-runner: the API alone (api-server.ts), a decomposition row; default the whole service (server.ts).
const serverScript = flag('no-runner') ? 'bench/orchestrator/api-server.ts' : 'bench/orchestrator/server.ts'
const databaseUrl = process.env.DATABASE_URL
const LOADER = ['--import', '@tapjs/typescript/import']
if (durationS > 60 || concurrency > 256) throw new Error('bounded runs only: --duration ≤ 60, --concurrency ≤ 256')

type Db = 'pglite' | 'postgres'
const dbs: Db[] = (['pglite', 'postgres'] as const).filter((d) => (only === '' || only === d) && (d === 'pglite' || databaseUrl))

function dbEnv(db: Db): NodeJS.ProcessEnv {
  const env = { ...process.env }
  if (db === 'pglite') delete env.DATABASE_URL
  return env
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function runChildJson(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<any> {
  const child = spawn(process.execPath, [...LOADER, ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] })
  const kill = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  let out = ''
  child.stdout.on('data', (d) => {
    out += d
  })
  const code: number = await new Promise((r) => child.on('exit', (c) => r(c ?? -1)))
  clearTimeout(kill)
  const line = out.trim().split('\n').pop() ?? ''
  if (code !== 0) throw new Error(`${args.join(' ')} exited ${code}: ${out}`)
  return JSON.parse(line)
}

interface Server {
  child: ChildProcess
  base: string
  pid: number
  statements(): Promise<Record<string, number>>
}

async function startServer(db: Db): Promise<Server> {
  const env = {
    ...(countSql && { BENCH_STATEMENTS: '1' }),
    ...dbEnv(db),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'ERROR',
    ...NO_RATE_LIMITS,
    BENCH_MAX_SECONDS: String(durationS + warmupS + 120),
  }
  const prof = profDir ? ['--cpu-prof', '--cpu-prof-dir', profDir] : []
  const child = spawn(process.execPath, [...prof, ...LOADER, serverScript], { env, stdio: ['ignore', 'pipe', 'inherit'] })
  const lines = createInterface({ input: child.stdout! })
  const waiting: Array<(c: Record<string, number>) => void> = []
  lines.on('line', (line) => {
    try {
      const msg = JSON.parse(line)
      if (msg.statements) waiting.shift()?.(msg.statements)
    } catch {
      /* not ours */
    }
  })
  // The server prints its statement counts on SIGUSR2 (BENCH_STATEMENTS=1).
  const statements = (): Promise<Record<string, number>> =>
    new Promise((resolve) => {
      waiting.push(resolve)
      child.kill('SIGUSR2')
    })
  const ready = await new Promise<{ port: number; pid: number }>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('server did not start in 180 s')), 180_000)
    lines.on('line', (line) => {
      try {
        const msg = JSON.parse(line)
        if (msg.ready) {
          clearTimeout(t)
          resolve(msg)
        }
      } catch {
        /* not ours */
      }
    })
    child.on('exit', (c) => reject(new Error(`server exited ${c}`)))
  })
  return { child, base: `http://127.0.0.1:${ready.port}`, pid: ready.pid, statements }
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  const exited = new Promise((r) => child.on('exit', r))
  child.kill('SIGTERM')
  const t = setTimeout(() => child.kill('SIGKILL'), 8_000)
  await exited
  clearTimeout(t)
}

let counter = 0
function cannon(base: string, seconds: number, round: string): Promise<CannonResult> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections: concurrency,
        pipelining: 1,
        duration: seconds,
        timeout: 10,
        requests: [
          {
            method: 'POST',
            path: '/api/v1/tasks',
            headers: { 'content-type': 'application/json' },
            setupRequest: (req: object) => ({
              ...req,
              body: JSON.stringify({
                goal: `bench ${round} task ${++counter}: summarise the latest release notes of project ${counter % 977}`,
              }),
            }),
          },
        ],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    )
    void instance
  })
}

async function totalTasks(base: string): Promise<number> {
  const res = await fetch(`${base}/api/v1/tasks?page_size=1`)
  const body = (await res.json()) as { pagination: { total_items: number } }
  return body.pagination.total_items
}

interface PgStats {
  xacts: number
  inserted: number
  updated: number
  deleted: number
}
/** The database's own counters (pg_stat_database): transactions and rows written, all clients. */
async function pgStats(): Promise<PgStats> {
  const q = (col: string) => countRows(databaseUrl!, `select ${col} as n from pg_stat_database where datname = current_database()`)
  return {
    xacts: await q('xact_commit + xact_rollback'),
    inserted: await q('tup_inserted'),
    updated: await q('tup_updated'),
    deleted: await q('tup_deleted'),
  }
}

interface SubmitRow {
  db: Db
  round: number
  bare: { rate: number; latency_ms: Record<string, number>; cpu_seconds: number; seconds: number }
  bareTx?: { rate: number; latency_ms: Record<string, number> }
  create: { rate: number; latency_ms: Record<string, number> }
  pgPerTask?: { xacts: number; inserted: number; updated: number; deleted: number }
  /** --statements: SQL statements the server sent during the window, per accepted task, and by kind. */
  sqlPerTask?: { total: number; finishedInWindow: number; byKind: Record<string, number> }
  service: {
    rate: number
    ok: number
    non2xx: number
    errors: number
    timeouts: number
    latency_ms: { p50: number; p90: number; p99: number; max: number; mean: number }
    serverCpuPct: number
    generatorCpuPct: number
    tasksStored: number
  }
  ratio: number
  load: string
}

const m = machine()
console.error(`# submit bench: ${JSON.stringify(m)}`)
console.error(
  `# rounds=${rounds} duration=${durationS}s warmup=${warmupS}s concurrency=${concurrency} dbs=${dbs.join(',')} server=${serverScript}`,
)
const rows: SubmitRow[] = []
const loads: string[] = [loadNow()]
const bareTimeout = (durationS + 90) * 1000

for (let round = 1; round <= rounds; round++) {
  for (const db of dbs) {
    if (db === 'postgres') await resetPostgres(databaseUrl!)
    const bare = await runChildJson(
      ['bench/orchestrator/bare-send.ts', '--concurrency', String(concurrency), '--duration', String(durationS)],
      dbEnv(db),
      bareTimeout,
    )
    console.error(`[${db} r${round}] bare send: ${fmt(bare.rate, 0)}/s p50 ${fmt(bare.latency_ms.p50, 2)} ms`)
    let bareTx: any
    if (withTx) {
      if (db === 'postgres') await resetPostgres(databaseUrl!)
      bareTx = await runChildJson(
        ['bench/orchestrator/bare-send.ts', '--concurrency', String(concurrency), '--duration', String(durationS), '--mode', 'tx'],
        dbEnv(db),
        bareTimeout,
      )
      console.error(`[${db} r${round}] send in a transaction: ${fmt(bareTx.rate, 0)}/s p50 ${fmt(bareTx.latency_ms.p50, 2)} ms`)
    }
    if (db === 'postgres') await resetPostgres(databaseUrl!)
    const create = await runChildJson(
      ['bench/orchestrator/bare-send.ts', '--concurrency', String(concurrency), '--duration', String(durationS), '--mode', 'create'],
      dbEnv(db),
      bareTimeout,
    )
    console.error(
      `[${db} r${round}] TaskService.create, no HTTP, no runner: ${fmt(create.rate, 0)}/s p50 ${fmt(create.latency_ms.p50, 2)} ms`,
    )

    if (db === 'postgres') await resetPostgres(databaseUrl!)
    const server = await startServer(db)
    let row: SubmitRow
    try {
      await cannon(server.base, warmupS, `${db}-r${round}-warm`)
      const before = await totalTasks(server.base)
      const pg0 = db === 'postgres' ? await pgStats() : undefined
      const finished = () =>
        countRows(
          databaseUrl!,
          "select count(*) as n from tasks where status in ('completed', 'failed', 'cancelled', 'timed_out', 'rejected')",
        )
      const sql0 = countSql && db === 'postgres' ? { counts: await server.statements(), finished: await finished() } : undefined
      const cpu0 = cpuSeconds(server.pid)
      const gen0 = process.cpuUsage()
      const t0 = performance.now()
      const r = await cannon(server.base, durationS, `${db}-r${round}`)
      const wall = (performance.now() - t0) / 1000
      const sql1 = sql0 ? { counts: await server.statements(), finished: await finished() } : undefined
      const serverCpu = cpuSeconds(server.pid) - cpu0
      const gen = process.cpuUsage(gen0)
      loads.push(loadNow())
      const after = await totalTasks(server.base)
      const ok = r['2xx']
      let pgPerTask: SubmitRow['pgPerTask']
      if (pg0) {
        await sleep(1200) // backends report their counters at most once a second
        const pg1 = await pgStats()
        const per = (k: keyof PgStats) => (pg1[k] - pg0[k]) / ok
        pgPerTask = { xacts: per('xacts'), inserted: per('inserted'), updated: per('updated'), deleted: per('deleted') }
      }
      row = {
        db,
        round,
        load: loadNow(),
        bare: { rate: bare.rate, latency_ms: bare.latency_ms, cpu_seconds: bare.cpu_seconds, seconds: bare.seconds },
        ...(bareTx && { bareTx: { rate: bareTx.rate, latency_ms: bareTx.latency_ms } }),
        create: { rate: create.rate, latency_ms: create.latency_ms },
        ...(pgPerTask && { pgPerTask }),
        ...(sql0 && sql1 && { sqlPerTask: perTask(diffCounts(sql1.counts, sql0.counts), r['2xx'], sql1.finished - sql0.finished) }),
        service: {
          rate: ok / r.duration,
          ok,
          non2xx: r.non2xx,
          errors: r.errors,
          timeouts: r.timeouts,
          latency_ms: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max, mean: r.latency.average },
          serverCpuPct: (100 * serverCpu) / wall,
          generatorCpuPct: (100 * (gen.user + gen.system)) / 1e6 / wall,
          tasksStored: after - before,
        },
        ratio: ok / r.duration / bare.rate,
      }
      if (db === 'postgres') {
        const stored = await countRows(databaseUrl!, 'select count(*) as n from tasks')
        console.error(`[${db} r${round}] tasks table holds ${stored} rows (warm-up included)`)
      }
    } finally {
      await stopServer(server.child)
    }
    rows.push(row)
    const s = row.service
    console.error(
      `[${db} r${round}] POST /api/v1/tasks: ${fmt(s.rate, 0)}/s (2xx ${s.ok}, non-2xx ${s.non2xx}, errors ${s.errors}, stored ${s.tasksStored}) ` +
        `p50 ${s.latency_ms.p50} ms p99 ${s.latency_ms.p99} ms, server CPU ${fmt(s.serverCpuPct, 0)}%, ratio to bare send ${fmt(row.ratio, 2)}`,
    )
    await sleep(500)
  }
}

function perTask(used: Record<string, number>, accepted: number, finishedInWindow: number): NonNullable<SubmitRow['sqlPerTask']> {
  const byKind = Object.fromEntries(
    Object.entries(used)
      .map(([k, v]) => [k, v / accepted] as const)
      .filter(([, v]) => v >= 0.05)
      .sort((a, b) => b[1] - a[1]),
  )
  return { total: totalOf(used) / accepted, finishedInWindow, byKind }
}

// Markdown
const out: string[] = []
out.push(`Machine: ${m.nproc} CPUs (${m.cpu}), Node ${m.node}, commit ${m.commit}, ${m.date}`)
out.push(`Load average (1/5/15 min) at start and after each measured window: ${loads.join(' | ')}`)
out.push(
  `Concurrency ${concurrency} (autocannon connections, pipelining 1 / send loops), ${durationS} s per measurement after ${warmupS} s warm-up (service), 1 s (bare send).`,
)
out.push('')
out.push(
  '| db | round | bare send/s | bare send p50 / p99 ms | POST /tasks /s | POST p50 / p90 / p99 ms | non-2xx | server CPU % | ratio POST ÷ send | TaskService.create/s (no HTTP, no runner) | PG xacts / rows ins / upd per accepted task |' +
    (withTx ? ' send-in-tx/s |' : ''),
)
out.push(`|---|---|---|---|---|---|---|---|---|---|---|${withTx ? '---|' : ''}`)
for (const r of rows) {
  out.push(
    `| ${r.db} | ${r.round} | ${fmt(r.bare.rate, 0)} | ${fmt(r.bare.latency_ms.p50!, 2)} / ${fmt(r.bare.latency_ms.p99!, 2)} | ${fmt(r.service.rate, 0)} | ` +
      `${r.service.latency_ms.p50} / ${r.service.latency_ms.p90} / ${r.service.latency_ms.p99} | ${r.service.non2xx + r.service.errors} | ${fmt(r.service.serverCpuPct, 0)} | ${fmt(r.ratio, 2)} | ` +
      `${fmt(r.create.rate, 0)} | ${r.pgPerTask ? `${fmt(r.pgPerTask.xacts)} / ${fmt(r.pgPerTask.inserted)} / ${fmt(r.pgPerTask.updated)}` : '–'} |` +
      (withTx ? ` ${fmt(r.bareTx?.rate ?? NaN, 0)} |` : ''),
  )
}
for (const db of dbs) {
  const mine = rows.filter((r) => r.db === db)
  const rate = mine.reduce((a, r) => a + r.service.rate, 0) / mine.length
  const bare = mine.reduce((a, r) => a + r.bare.rate, 0) / mine.length
  const ratio = mine.reduce((a, r) => a + r.ratio, 0) / mine.length
  out.push('')
  out.push(
    `**${db}**: POST /api/v1/tasks ${fmt(rate, 0)}/s (mean of ${mine.length}), bare send ${fmt(bare, 0)}/s, ratio ${fmt(ratio, 2)}` +
      (db === 'postgres'
        ? ` → target ≥ 1,000/s: ${rate >= 1000 ? 'MET' : 'MISSED'}; target ratio ≥ 0.5: ${ratio >= 0.5 ? 'MET' : 'MISSED'}`
        : ` (ratio target ≥ 0.5: ${ratio >= 0.5 ? 'met' : 'missed'})`),
  )
}
for (const r of rows) {
  if (!r.sqlPerTask) continue
  out.push(
    `\nSQL statements per accepted task, ${r.db} round ${r.round}: ${fmt(r.sqlPerTask.total, 1)} (${r.service.ok} accepted, ${r.sqlPerTask.finishedInWindow} finished by the runner in the window)\n`,
  )
  out.push('| statements / accepted task | statement (first 90 characters) |')
  out.push('|---|---|')
  for (const [k, v] of Object.entries(r.sqlPerTask.byKind)) out.push(`| ${fmt(v, 2)} | \`${k.replace(/\|/g, '\\|')}\` |`)
}
console.log(out.join('\n'))
if (jsonOut)
  writeFileSync(
    jsonOut,
    JSON.stringify({ machine: m, loads, options: { rounds, durationS, warmupS, concurrency, server: serverScript }, rows }, null, 2),
  )
process.exit(0)
