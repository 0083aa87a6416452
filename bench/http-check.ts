/**
 * `/api/v1/check` against the HTTP stack's own ceiling, in one run on one machine
 * (docs/architecture.md#performance-targets).
 *
 *   npm run build            # the reflex service runs from dist/
 *   node --import @tapjs/typescript/import bench/http-check.ts [options]
 *
 * 1. Starts bench/bare-server.ts (bare hyper-express routes, the ceiling) and the service
 *    (`ganglion start`, i.e. `node dist/cli/main.js start`, on embedded defaults: the reflex routes
 *    and the orchestrator in one process, as the hit needs, see below; rate limits raised so the
 *    bench measures the check) in their own processes; this process is the load generator.
 * 2. Peak throughput, autocannon -c 50 -p 1 -d 10 after a warm-up, in rounds that interleave the
 *    targets (bare json, bare buffer, bare raw, bare+check, check miss, check hit); each ratio is
 *    taken against `/bare/json` of the same round. Every body is the same size (1 KB text in
 *    `{"text": …}`); the miss path and the bare routes cycle through 256 pre-built texts that
 *    differ in their last ten characters and are never stored, so no check can hit; the hit path
 *    sends one text (`TEXT_GOAL`) that a task of that goal, submitted to the orchestrator port and
 *    run to completion, made a hit first (seed-hit.ts); the bench exits 1 if a check of it then
 *    does not hit.
 * 3. At an offered load of half the measured `/bare/json` ceiling: P50/P95/P99 of check miss and
 *    hit (and `/bare/json` for reference), with bench/open-loop.ts (constant rate, µs latencies)
 *    and with autocannon -R (`overallRate`; bursty, see open-loop.ts) for comparison.
 * 4. Optionally (`--wrk`), the same peak comparison with wrk, a C load generator, as a cross-check
 *    that autocannon itself is not the bottleneck.
 * Server CPU per request (from /proc/<pid>/stat) is reported beside every run: unlike req/s it
 * does not depend on how fast the load generator is.
 * `--pin` gives each side a core of its own: the servers (every thread) on CPU 0, this process
 * (autocannon, the open-loop generator, wrk) on CPU 1, with `taskset`; the nearest this machine
 * comes to a load generator on another host. Without it the scheduler shares both cores.
 *
 * 5. With `--auth-database-url postgres://…`, a second service beside the first, with
 *    AUTH=required and its API keys (and tasks) in that PostgreSQL; a `member` key is made with
 *    `ganglion keys create` and sent as `Authorization: Bearer` by every request against it, the
 *    task that makes its hit included, so the hit is the key's tenant's. Its check miss and hit
 *    join the rounds, and the report gives auth on ÷ auth off for throughput and latency.
 *
 * Options: --duration 10 (s per peak run), --rounds 2, --warmup 3 (s), --connections 50,
 * --half-duration 10, --half-connections 32, --wrk, --reflex-cmd "node dist/cli/main.js start" (it
 * must start an orchestrator on PORT beside the reflex routes), --no-reflex (ceilings only),
 * --bare-port 18101, --reflex-port 18102 (orchestrator +1; +2 and +3 for auth on), --pin,
 * --auth-database-url.
 * Every run is bounded by its duration; the whole script by a 20-minute watchdog. 127.0.0.1 only.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { NO_RATE_LIMITS } from './no-rate-limits.js'
import { type Percentiles, percentiles, runOpenLoop } from './open-loop.js'
import { seedHit } from './seed-hit.js'
import { TEXT_GOAL, variant } from './texts.js'

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    'half-duration': { type: 'string', default: '10' },
    'half-connections': { type: 'string', default: '32' },
    wrk: { type: 'boolean', default: false },
    'reflex-cmd': { type: 'string', default: 'node dist/cli/main.js start' },
    'no-reflex': { type: 'boolean', default: false },
    'bare-port': { type: 'string', default: '18101' },
    'reflex-port': { type: 'string', default: '18102' },
    pin: { type: 'boolean', default: false },
    'auth-database-url': { type: 'string' },
  },
})
const DURATION = Number(args.duration)
const ROUNDS = Number(args.rounds)
const WARMUP = Number(args.warmup)
const CONNECTIONS = Number(args.connections)
const HALF_DURATION = Number(args['half-duration'])
const HALF_CONNECTIONS = Number(args['half-connections'])
const HOST = '127.0.0.1'
const BARE_PORT = Number(args['bare-port'])
const REFLEX_PORT = Number(args['reflex-port'])
// Every body names one of 256 users (`user_id`), as clients of the check do.
const USERS = 256

const ROOT = new URL('..', import.meta.url).pathname
const require = createRequire(import.meta.url)

// ---------------------------------------------------------------------------------------------
// autocannon (no bundled types; the part used here)
// ---------------------------------------------------------------------------------------------

interface AcRequest {
  method: string
  path: string
  headers: Record<string, string>
  body?: string
}
interface AcOptions {
  url: string
  connections: number
  pipelining: number
  duration: number
  overallRate?: number
  requests: AcRequest[]
  timeout?: number
}
interface AcResult {
  requests: { average: number; total: number }
  latency: { p50: number; p99: number }
  errors: number
  timeouts: number
  non2xx: number
  duration: number
}
interface AcInstance {
  on(event: 'response', fn: (client: unknown, status: number, bytes: number, ms: number) => void): void
}
type Autocannon = (opts: AcOptions, cb: (err: Error | null, res: AcResult) => void) => AcInstance
const autocannon = require('autocannon') as Autocannon

// ---------------------------------------------------------------------------------------------
// Machine, processes
// ---------------------------------------------------------------------------------------------

const sh = (cmd: string, argv: string[]): string => {
  try {
    return execFileSync(cmd, argv, { cwd: ROOT, encoding: 'utf8' }).trim()
  } catch {
    return '?'
  }
}

const machine = {
  date: new Date().toISOString(),
  commit: sh('git', ['rev-parse', '--short', 'HEAD']),
  dirty: sh('git', ['status', '--porcelain', '--untracked-files=no']) !== '',
  nproc: cpus().length,
  cpu: cpus()[0]?.model ?? '?',
  node: process.version,
  loadBefore: loadavg()
    .map((x) => x.toFixed(2))
    .join(' '),
}

const CLK_TCK = 100
/** User + system CPU milliseconds of a process (all threads), from /proc. */
function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return NaN
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK
  } catch {
    return NaN
  }
}

/** With --pin the servers start on CPU 0 (taskset execs the command: the pid stays the server's). */
const SERVER_CPU = '0'
const GENERATOR_CPU = '1'
if (args.pin && cpus().length < 2) throw new Error('--pin needs two CPUs')

const children: ChildProcess[] = []
function start(name: string, cmd: string, argv: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  if (args.pin) [cmd, argv] = ['taskset', ['-c', SERVER_CPU, cmd, ...argv]]
  const child = spawn(cmd, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(child)
  let tail = ''
  const keep = (d: Buffer): void => {
    tail = (tail + d.toString()).slice(-4000)
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  child.on('exit', (code, signal) => {
    if (!stopping) console.error(`\n${name} exited (${code ?? signal}); its last output:\n${tail}`)
  })
  return child
}
let stopping = false
function stopAll(): void {
  stopping = true
  for (const c of children) if (c.exitCode === null && c.pid !== undefined) c.kill('SIGTERM')
}
process.on('exit', stopAll)
const watchdog = setTimeout(() => {
  console.error('watchdog: 20 minutes elapsed, stopping')
  stopAll()
  process.exit(2)
}, 20 * 60_000)
watchdog.unref()

async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs
  for (;;) {
    try {
      const r = await fetch(url)
      if (r.ok) return
    } catch {
      // not up yet
    }
    if (Date.now() > until) throw new Error(`${url} not ready after ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 200))
  }
}

async function post(
  port: number,
  path: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const r = await fetch(`http://${HOST}:${port}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  })
  return { status: r.status, json: (await r.json()) as Record<string, unknown> }
}

// ---------------------------------------------------------------------------------------------
// Bodies: all the same size; a counter in the last ten characters of the text
// ---------------------------------------------------------------------------------------------

const bodyOf = (text: string, user: number): string =>
  `{"text":${JSON.stringify(text)},"user_id":"bench-u-${String(user % USERS).padStart(3, '0')}"}`
const varyingBody = (i: number): string => bodyOf(variant(`#${i.toString(36).padStart(9, '0')}`), i)
/** One text, 256 users: the stored answer is the tenant's for the text and flags, so every one hits. */
const HIT_BODIES = Array.from({ length: USERS }, (_, i) => bodyOf(TEXT_GOAL, i))
const HIT_BODY = HIT_BODIES[0] ?? ''
/**
 * Pre-built so the load generator does no per-request work (autocannon rebuilds a request on
 * every send when it has a setupRequest, which made it the bottleneck). Every connection cycles
 * through them; none of these texts is ever stored in the cache, so each check is a miss.
 */
const VARYING_BODIES = Array.from({ length: USERS }, (_, i) => varyingBody(i))

interface Target {
  name: string
  port: number
  path: string
  /** True: one fixed body (the cache-hit path). */
  fixed: boolean
  pid: () => number | undefined
  /** Sent with every request besides Content-Type: the credential of the auth-on service. */
  headers?: Record<string, string>
}

// ---------------------------------------------------------------------------------------------
// Runs
// ---------------------------------------------------------------------------------------------

interface RunResult {
  target: string
  rps: number
  total: number
  errors: number
  non2xx: number
  lat: Percentiles
  /** Server CPU ms per request × 1000 = µs. */
  serverUsPerReq: number
  serverCpuPct: number
  generatorCpuPct: number
}

function autocannonRun(t: Target, durationS: number, connections: number, overallRate?: number): Promise<RunResult> {
  const latencies: number[] = []
  const headers = { 'content-type': 'application/json', ...t.headers }
  const requests: AcRequest[] = (t.fixed ? HIT_BODIES : VARYING_BODIES).map((body) => ({ method: 'POST', path: t.path, headers, body }))
  const opts: AcOptions = { url: `http://${HOST}:${t.port}`, connections, pipelining: 1, duration: durationS, requests, timeout: 10 }
  if (overallRate) opts.overallRate = overallRate
  // CPU is sampled from the first response on: autocannon spends a while building every
  // connection's requests before it sends, and that idle time must not dilute the percentages.
  let first: { at: number; server: number; gen: NodeJS.CpuUsage } | undefined
  let counted = 0
  return new Promise((resolve, reject) => {
    const inst = autocannon(opts, (err, res) => {
      if (err) return reject(err)
      const at = performance.now()
      const server = cpuMs(t.pid())
      const gen = process.cpuUsage(first?.gen)
      const wall = at - (first?.at ?? at)
      const serverMs = server - (first?.server ?? server)
      if (process.env.BENCH_DEBUG)
        log(
          `debug ${t.name}: total ${res.requests.total}, counted ${counted}, avg ${res.requests.average}, window ${wall.toFixed(0)} ms, server ${serverMs} ms`,
        )
      resolve({
        target: t.name,
        rps: res.requests.average,
        total: res.requests.total,
        errors: res.errors + res.timeouts,
        non2xx: res.non2xx,
        lat: percentiles(latencies),
        serverUsPerReq: (serverMs * 1000) / Math.max(1, counted),
        serverCpuPct: (serverMs / wall) * 100,
        generatorCpuPct: ((gen.user + gen.system) / 1000 / wall) * 100,
      })
    })
    inst.on('response', (_c, status, _b, ms) => {
      if (!first) first = { at: performance.now(), server: cpuMs(t.pid()), gen: process.cpuUsage() }
      else counted++
      if (status >= 200 && status < 300) latencies.push(ms)
    })
  })
}

function wrkRun(t: Target, durationS: number, connections: number, dir: string): RunResult | null {
  // One Lua state per wrk thread; -t1 keeps wrk on one core, like autocannon.
  // wrk varies the text with its own counter ('w…'), so its texts differ from autocannon's too.
  const quoted = JSON.stringify(t.fixed ? TEXT_GOAL : variant('#000000000'))
  const head = `{"text":${t.fixed ? quoted : quoted.slice(0, -11)}` // varying: without the marker and closing quote
  const script = join(dir, `${t.name.replace(/\W+/g, '-')}.lua`)
  writeFileSync(
    script,
    `wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n` +
      `local head = [==[${head}]==]\nlocal n = 0\nlocal fixed = ${t.fixed}\n` +
      `request = function()\n  n = n + 1\n  local body\n` +
      `  if fixed then body = head .. string.format(',"user_id":"bench-u-%03d"}', n % ${USERS})\n` +
      `  else body = head .. string.format('w%09d","user_id":"bench-u-%03d"}', n, n % ${USERS}) end\n` +
      `  return wrk.format(nil, "${t.path}", nil, body)\nend\n`,
  )
  const cpu0 = cpuMs(t.pid())
  const wall0 = performance.now()
  let out: string
  try {
    out = execFileSync(
      'wrk',
      ['-t1', `-c${connections}`, `-d${durationS}s`, '--latency', '-s', script, `http://${HOST}:${t.port}${t.path}`],
      {
        encoding: 'utf8',
        timeout: (durationS + 20) * 1000,
      },
    )
  } catch (e) {
    console.error(`wrk failed: ${(e as Error).message}`)
    return null
  }
  const wall = performance.now() - wall0
  const serverMs = cpuMs(t.pid()) - cpu0
  const unit = (v: string, u: string): number => Number(v) * (u === 'us' ? 1e-3 : u === 's' ? 1e3 : 1)
  const pct = (p: string): number => {
    const m = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s)`).exec(out)
    return m ? unit(m[1] ?? '', m[2] ?? '') : NaN
  }
  const total = Number(/(\d+) requests in/.exec(out)?.[1] ?? NaN)
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0)
  const errs = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)
  return {
    target: t.name,
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN),
    total,
    errors: errs ? errs.slice(1).reduce((a, x) => a + Number(x), 0) : 0,
    non2xx,
    lat: { p50: pct('50'), p95: NaN, p99: pct('99'), max: NaN, mean: NaN },
    serverUsPerReq: (serverMs * 1000) / Math.max(1, total),
    serverCpuPct: (serverMs / wall) * 100,
    generatorCpuPct: NaN,
  }
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

const f1 = (x: number): string => (Number.isFinite(x) ? x.toFixed(1) : '–')
const f2 = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : '–')
const f3 = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : '–')
const int = (x: number): string => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '–')
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2
}
const log = (s: string): void => {
  process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${s}\n`)
}

const tsNode = ['--import', '@tapjs/typescript/import']
const bare = start('bare-server', process.execPath, [...tsNode, 'bench/bare-server.ts', '--port', String(BARE_PORT)])
await waitFor(`http://${HOST}:${BARE_PORT}/bare/ping`, 60_000)
log(`bare server up (pid ${bare.pid})`)

let reflex: ChildProcess | undefined
const dataDir = mkdtempSync(join(tmpdir(), 'ganglion-bench-'))
if (!args['no-reflex']) {
  const [cmd, ...argv] = (args['reflex-cmd'] ?? '').split(' ').filter(Boolean)
  const resolved = cmd === 'node' ? process.execPath : (cmd ?? process.execPath)
  reflex = start('service', resolved, argv, {
    HOST,
    REFLEX_PORT: String(REFLEX_PORT),
    PORT: String(REFLEX_PORT + 1),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'ERROR',
    ...NO_RATE_LIMITS,
    NODE_ENV: 'production',
  })
  await waitFor(`http://${HOST}:${REFLEX_PORT}/api/v1/health`, 120_000)
  await waitFor(`http://${HOST}:${REFLEX_PORT + 1}/api/v1/health`, 120_000)
  log(`service up (pid ${reflex.pid}: ${args['reflex-cmd']})`)
}
// The same service with AUTH=required, and a member's API key made by the CLI on its database.
const AUTH_PORT = REFLEX_PORT + 2
let reflexAuth: ChildProcess | undefined
let bearer: Record<string, string> | undefined
const authDatabaseUrl = args['auth-database-url']
if (!args['no-reflex'] && authDatabaseUrl !== undefined) {
  const [cmd, ...argv] = (args['reflex-cmd'] ?? '').split(' ').filter(Boolean)
  const resolved = cmd === 'node' ? process.execPath : (cmd ?? process.execPath)
  const cli = argv.slice(0, -1) // the command without its role
  const env = { ...process.env, DATABASE_URL: authDatabaseUrl, LOG_LEVEL: 'ERROR' }
  const key = execFileSync(resolved, [...cli, 'keys', 'create', '--tenant', 'bench', '--role', 'member', '--name', `bench-${Date.now()}`], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
  }).trim()
  bearer = { authorization: `Bearer ${key}` }
  reflexAuth = start('service, auth on', resolved, argv, {
    HOST,
    REFLEX_PORT: String(AUTH_PORT),
    PORT: String(AUTH_PORT + 1),
    DATA_DIR: dataDir,
    DATABASE_URL: authDatabaseUrl,
    AUTH: 'required',
    LOG_LEVEL: 'ERROR',
    ...NO_RATE_LIMITS,
    NODE_ENV: 'production',
  })
  await waitFor(`http://${HOST}:${AUTH_PORT}/api/v1/health`, 120_000)
  await waitFor(`http://${HOST}:${AUTH_PORT + 1}/api/v1/health`, 120_000)
  log(`service with AUTH=required up (pid ${reflexAuth.pid}), key ${key.slice(0, 20)}…`)
}
if (args.pin) {
  // Every thread of this process; wrk, started later, inherits the mask.
  execFileSync('taskset', ['-a', '-p', '-c', GENERATOR_CPU, String(process.pid)], { stdio: 'ignore' })
  log(`pinned: servers on CPU ${SERVER_CPU}, load generators on CPU ${GENERATOR_CPU}`)
}

const targets: Target[] = [
  { name: 'bare json()', port: BARE_PORT, path: '/bare/json', fixed: false, pid: () => bare.pid },
  { name: 'bare buffer()', port: BARE_PORT, path: '/bare/buffer', fixed: false, pid: () => bare.pid },
  { name: 'bare raw', port: BARE_PORT, path: '/bare/raw', fixed: false, pid: () => bare.pid },
  { name: 'bare raw + detector.check', port: BARE_PORT, path: '/bare/check', fixed: false, pid: () => bare.pid },
]
const CEILING = 'bare json()'
let missTarget: Target | undefined
let hitTarget: Target | undefined
if (reflex) {
  missTarget = { name: 'check miss', port: REFLEX_PORT, path: '/api/v1/check', fixed: false, pid: () => reflex?.pid }
  hitTarget = { name: 'check hit', port: REFLEX_PORT, path: '/api/v1/check', fixed: true, pid: () => reflex?.pid }
  // A task of the hit text's goal stores its answer; check both paths answer as expected.
  const seeded = await seedHit({ orchestratorPort: REFLEX_PORT + 1, reflexPort: REFLEX_PORT, text: TEXT_GOAL })
  const hit = await post(REFLEX_PORT, '/api/v1/check', HIT_BODY)
  const miss = await post(REFLEX_PORT, '/api/v1/check', VARYING_BODIES[1] ?? '')
  log(
    `task ${seeded.taskId} completed in ${int(seeded.ms)} ms; hit probe ${hit.status} cache_hit=${String(hit.json.cache_hit)}; miss probe cache_hit=${String(miss.json.cache_hit)}`,
  )
  log(`miss probe PII: ${JSON.stringify((miss.json.pii_matches as Array<{ type: string }> | undefined)?.map((m) => m.type))}`)
  if (hit.json.cache_hit !== true) throw new Error('the cache-hit path does not hit')
  targets.push(missTarget, hitTarget)
}
let authMiss: Target | undefined
let authHit: Target | undefined
if (reflexAuth && bearer) {
  authMiss = {
    name: 'check miss, auth on',
    port: AUTH_PORT,
    path: '/api/v1/check',
    fixed: false,
    pid: () => reflexAuth?.pid,
    headers: bearer,
  }
  authHit = { name: 'check hit, auth on', port: AUTH_PORT, path: '/api/v1/check', fixed: true, pid: () => reflexAuth?.pid, headers: bearer }
  const refused = await post(AUTH_PORT, '/api/v1/check', HIT_BODY)
  const first = await post(AUTH_PORT, '/api/v1/check', VARYING_BODIES[1] ?? '', bearer)
  if (refused.status !== 401 || first.status !== 200) throw new Error('the auth-on service does not require or accept the key')
  const seeded = await seedHit({ orchestratorPort: AUTH_PORT + 1, reflexPort: AUTH_PORT, text: TEXT_GOAL, headers: bearer })
  const hit = await post(AUTH_PORT, '/api/v1/check', HIT_BODY, bearer)
  log(
    `auth on: without the key ${refused.status}; with it ${first.status}; task ${seeded.taskId} completed in ${int(seeded.ms)} ms; hit probe ${hit.status} cache_hit=${String(hit.json.cache_hit)}`,
  )
  if (hit.json.cache_hit !== true) throw new Error('the cache-hit path with auth on does not hit')
  targets.push(authMiss, authHit)
}
const bodyBytes = Buffer.byteLength(varyingBody(0))
log(`body ${bodyBytes} bytes (hit body ${Buffer.byteLength(HIT_BODY)}); targets: ${targets.map((t) => t.name).join(', ')}`)

// Warm-up: JIT, uWS buffers, the addon's lazy statics.
for (const t of targets) await autocannonRun(t, WARMUP, CONNECTIONS)
log('warm-up done')

// Peak rounds, interleaved.
const peak = new Map<string, RunResult[]>()
const ratios = new Map<string, number[]>()
for (let round = 1; round <= ROUNDS; round++) {
  const inRound = new Map<string, RunResult>()
  for (const t of targets) {
    const r = await autocannonRun(t, DURATION, CONNECTIONS)
    inRound.set(t.name, r)
    peak.set(t.name, [...(peak.get(t.name) ?? []), r])
    log(
      `round ${round} ${t.name}: ${int(r.rps)} req/s, p50 ${f2(r.lat.p50)} ms, server ${f1(r.serverUsPerReq)} µs CPU/req, ${f1(r.serverCpuPct)}% CPU; generator ${f1(r.generatorCpuPct)}%`,
    )
  }
  const ceiling = inRound.get(CEILING)?.rps ?? NaN
  for (const [name, r] of inRound) ratios.set(name, [...(ratios.get(name) ?? []), r.rps / ceiling])
}
const ceilingRps = median((peak.get(CEILING) ?? []).map((r) => r.rps))

// Half load.
const halfRate = Math.round(ceilingRps / 2)
const half: Array<{
  how: string
  target: string
  offered: number
  rps: number
  lat: Percentiles
  intended?: Percentiles
  errors: number
  serverUsPerReq: number
}> = []
const halfTargets = [targets[0], missTarget, hitTarget, authMiss, authHit].filter((t): t is Target => t !== undefined)
async function openLoop(t: Target, rate: number, how: string): Promise<void> {
  const cpu0 = cpuMs(t.pid())
  const r = await runOpenLoop({
    host: HOST,
    port: t.port,
    path: t.path,
    rate,
    durationS: HALF_DURATION,
    connections: HALF_CONNECTIONS,
    bodies: t.fixed ? HIT_BODIES : VARYING_BODIES,
    ...(t.headers && { headers: t.headers }),
  })
  const us = ((cpuMs(t.pid()) - cpu0) * 1000) / Math.max(1, r.completed)
  half.push({
    how,
    target: t.name,
    offered: rate,
    rps: r.achievedRate,
    lat: r.service,
    intended: r.intended,
    errors: r.errors + r.non2xx,
    serverUsPerReq: us,
  })
  log(
    `${how} (${rate}/s) ${t.name}: ${int(r.achievedRate)} req/s, p50 ${f3(r.service.p50)} p99 ${f3(r.service.p99)} ms (intended p99 ${f3(r.intended.p99)}), max queued ${r.maxQueued}`,
  )
}
for (const t of halfTargets) await openLoop(t, halfRate, 'open loop')
// When the check's own peak is under half the ceiling, the line above is an overload; this one
// shows the check at half of its own measured peak (50 % utilisation), for the record.
for (const t of [missTarget, hitTarget, authMiss, authHit]) {
  if (!t) continue
  const own = Math.round(median((peak.get(t.name) ?? []).map((r) => r.rps)) / 2)
  if (own < halfRate) await openLoop(t, own, 'open loop, half its own peak')
}
for (const t of halfTargets) {
  const r = await autocannonRun(t, HALF_DURATION, 10, halfRate)
  half.push({
    how: 'autocannon -R',
    target: t.name,
    offered: halfRate,
    rps: r.rps,
    lat: r.lat,
    errors: r.errors + r.non2xx,
    serverUsPerReq: r.serverUsPerReq,
  })
  log(`half load (autocannon -R ${halfRate}) ${t.name}: ${int(r.rps)} req/s, p50 ${f3(r.lat.p50)} p99 ${f3(r.lat.p99)} ms`)
}

// wrk cross-check.
const wrkRows: Array<{ round: number; r: RunResult }> = []
if (args.wrk) {
  const dir = mkdtempSync(join(tmpdir(), 'ganglion-wrk-'))
  const wrkTargets = [targets[0], missTarget, hitTarget].filter((t): t is Target => t !== undefined)
  for (let round = 1; round <= ROUNDS; round++) {
    for (const t of wrkTargets) {
      const r = wrkRun(t, DURATION, CONNECTIONS, dir)
      if (r) {
        wrkRows.push({ round, r })
        log(`wrk round ${round} ${t.name}: ${int(r.rps)} req/s, p50 ${f3(r.lat.p50)} ms, server ${f1(r.serverUsPerReq)} µs CPU/req`)
      }
    }
  }
  rmSync(dir, { recursive: true, force: true })
}

const loadAfter = loadavg()
  .map((x) => x.toFixed(2))
  .join(' ')
stopAll()
rmSync(dataDir, { recursive: true, force: true })

// ---------------------------------------------------------------------------------------------
// Report
// ---------------------------------------------------------------------------------------------

const out: string[] = []
const p = (s = ''): void => {
  out.push(s)
}
p(`## HTTP bench, ${machine.date}`)
p()
p(
  `commit ${machine.commit}${machine.dirty ? ' (tracked files modified)' : ''}; ${machine.nproc} × ${machine.cpu}; node ${machine.node}; ` +
    `load average before ${machine.loadBefore}, after ${loadAfter}.` +
    (args.pin ? ` Pinned (\`--pin\`): servers on CPU ${SERVER_CPU}, load generators on CPU ${GENERATOR_CPU}.` : ''),
)
p(
  `Service: \`${args['no-reflex'] ? '(not started)' : args['reflex-cmd']}\` with every RATE_LIMIT_* at 0 (no limit), so the bench measures the check, not 429s; every body names one of ${USERS} users; the hit text is made a hit by a completed task of that goal.`,
)
p(
  `Bodies ${bodyBytes} bytes (\`{"text": <1,024 chars>, "user_id": "bench-u-NNN"}\`); peak: autocannon -c ${CONNECTIONS} -p 1 -d ${DURATION}, ${ROUNDS} interleaved rounds after a ${WARMUP} s warm-up per target.`,
)
p()
p('### Peak throughput (autocannon; median of rounds; ratio per round against `bare json()` of the same round)')
p()
p('"CPU ratio" = the ceiling\'s server CPU per request ÷ this target\'s: the throughput ratio the server would reach if it, not the')
p(
  'load generator, were the bottleneck. When the server is under ~90 % CPU the run is generator-bound and the req/s ratio understates the gap.',
)
p()
p(
  '| target | req/s | P50 ms | P95 ms | P99 ms | ratio to ceiling (per round) | server µs CPU/req | CPU ratio | server CPU % | generator CPU % | errors / non-2xx |',
)
p('|---|---|---|---|---|---|---|---|---|---|---|')
const ceilingUs = median((peak.get(CEILING) ?? []).map((r) => r.serverUsPerReq))
for (const t of targets) {
  const rs = peak.get(t.name) ?? []
  const m = (k: (r: RunResult) => number): number => median(rs.map(k))
  const rr = ratios.get(t.name) ?? []
  p(
    `| ${t.name} | ${int(m((r) => r.rps))} | ${f2(m((r) => r.lat.p50))} | ${f2(m((r) => r.lat.p95))} | ${f2(m((r) => r.lat.p99))} | ` +
      `${f2(median(rr))} (${rr.map(f2).join(', ')}) | ${f1(m((r) => r.serverUsPerReq))} | ${f2(ceilingUs / m((r) => r.serverUsPerReq))} | ${f1(m((r) => r.serverCpuPct))} | ` +
      `${f1(m((r) => r.generatorCpuPct))} | ${rs.reduce((a, r) => a + r.errors, 0)} / ${rs.reduce((a, r) => a + r.non2xx, 0)} |`,
  )
}
p()
p(`### At half the ceiling: offered ${int(halfRate)} req/s for ${HALF_DURATION} s`)
p()
p(
  `Open loop: bench/open-loop.ts, ${HALF_CONNECTIONS} keep-alive connections, constant rate; "service" latency from write to last byte, "intended" from the scheduled send time. ` +
    'autocannon -R: -c 10, latencies from its per-response times (its own histogram rounds to 1 ms).',
)
p()
p('| generator | target | offered req/s | achieved req/s | P50 ms | P95 ms | P99 ms | intended P50 / P99 ms | server µs CPU/req | errors |')
p('|---|---|---|---|---|---|---|---|---|---|')
for (const h of half) {
  p(
    `| ${h.how} | ${h.target} | ${int(h.offered)} | ${int(h.rps)} | ${f3(h.lat.p50)} | ${f3(h.lat.p95)} | ${f3(h.lat.p99)} | ` +
      `${h.intended ? `${f3(h.intended.p50)} / ${f3(h.intended.p99)}` : '–'} | ${f1(h.serverUsPerReq)} | ${h.errors} |`,
  )
}
if (wrkRows.length) {
  p()
  p(`### Cross-check with wrk (-t1 -c ${CONNECTIONS} -d ${DURATION}s, Lua body counter)`)
  p()
  p('| round | target | req/s | ratio to bare json() | P50 ms | P99 ms | server µs CPU/req | CPU ratio | server CPU % | errors / non-2xx |')
  p('|---|---|---|---|---|---|---|---|---|---|')
  for (const { round, r } of wrkRows) {
    const ceil = wrkRows.find((w) => w.round === round && w.r.target === CEILING)?.r
    p(
      `| ${round} | ${r.target} | ${int(r.rps)} | ${f2(r.rps / (ceil?.rps ?? NaN))} | ${f3(r.lat.p50)} | ${f3(r.lat.p99)} | ` +
        `${f1(r.serverUsPerReq)} | ${f2((ceil?.serverUsPerReq ?? NaN) / r.serverUsPerReq)} | ${f1(r.serverCpuPct)} | ${r.errors} / ${r.non2xx} |`,
    )
  }
}

// Auth on against auth off.
if (missTarget && hitTarget && authMiss && authHit) {
  p()
  p('### Auth on ÷ auth off')
  p()
  p(
    'The same service, the second with AUTH=required and a `member` API key as `Authorization: Bearer` on every request. ' +
      'Peak: medians of the interleaved rounds above. Half load: the open loop at half the ceiling.',
  )
  p()
  p(
    '| path | peak req/s off / on | on ÷ off | peak P50 ms off / on | peak P99 ms off / on | half-load P50 ms off / on | half-load P99 ms off / on | server µs CPU/req off / on |',
  )
  p('|---|---|---|---|---|---|---|---|')
  for (const [off, on] of [
    [missTarget, authMiss],
    [hitTarget, authHit],
  ] as const) {
    const m = (t: Target, k: (r: RunResult) => number): number => median((peak.get(t.name) ?? []).map(k))
    const h = (t: Target) => half.find((x) => x.how === 'open loop' && x.target === t.name)?.lat
    const rpsOff = m(off, (r) => r.rps)
    const rpsOn = m(on, (r) => r.rps)
    p(
      `| ${off.name.replace('check ', '')} | ${int(rpsOff)} / ${int(rpsOn)} | ${f2(rpsOn / rpsOff)} | ${f2(m(off, (r) => r.lat.p50))} / ${f2(m(on, (r) => r.lat.p50))} | ` +
        `${f2(m(off, (r) => r.lat.p99))} / ${f2(m(on, (r) => r.lat.p99))} | ${f3(h(off)?.p50 ?? NaN)} / ${f3(h(on)?.p50 ?? NaN)} | ` +
        `${f3(h(off)?.p99 ?? NaN)} / ${f3(h(on)?.p99 ?? NaN)} | ${f1(m(off, (r) => r.serverUsPerReq))} / ${f1(m(on, (r) => r.serverUsPerReq))} |`,
    )
  }
}

// Targets.
if (missTarget && hitTarget) {
  const miss = median(ratios.get(missTarget.name) ?? [])
  const hit = median(ratios.get(hitTarget.name) ?? [])
  const missRps = median((peak.get(missTarget.name) ?? []).map((r) => r.rps))
  const hm = half.find((h) => h.how === 'open loop' && h.target === missTarget?.name)
  const hh = half.find((h) => h.how === 'open loop' && h.target === hitTarget?.name)
  const ok = (b: boolean): string => (b ? 'met' : '**MISSED**')
  p()
  p('### Targets')
  p()
  p('| target | figure | verdict |')
  p('|---|---|---|')
  const cpuRatio = (name: string): number => ceilingUs / median((peak.get(name) ?? []).map((r) => r.serverUsPerReq))
  const missCpu = cpuRatio(missTarget.name)
  const hitCpu = cpuRatio(hitTarget.name)
  p(
    `| check miss ≥ 0.8 × ceiling (req/s, median of rounds) | ${f2(miss)} (rounds ${(ratios.get(missTarget.name) ?? []).map(f2).join(', ')}) | ${ok(miss >= 0.8)} |`,
  )
  p(`| check miss ≥ 0.8 × ceiling (server CPU per request) | ${f2(missCpu)} | ${ok(missCpu >= 0.8)} |`)
  p(
    `| check hit ≥ 0.9 × ceiling (req/s, median of rounds) | ${f2(hit)} (rounds ${(ratios.get(hitTarget.name) ?? []).map(f2).join(', ')}) | ${ok(hit >= 0.9)} |`,
  )
  p(`| check hit ≥ 0.9 × ceiling (server CPU per request) | ${f2(hitCpu)} | ${ok(hitCpu >= 0.9)} |`)
  for (const [name, h] of [
    ['miss', hm],
    ['hit', hh],
  ] as const) {
    if (!h) continue
    p(`| half load, ${name}: P50 < 1 ms | ${f3(h.lat.p50)} ms | ${ok(h.lat.p50 < 1)} |`)
    p(`| half load, ${name}: P99 < 5 ms | ${f3(h.lat.p99)} ms | ${ok(h.lat.p99 < 5)} |`)
    p(
      `| spec, ${name}: P50 < 5, P95 < 10, P99 < 20 ms | ${f3(h.lat.p50)} / ${f3(h.lat.p95)} / ${f3(h.lat.p99)} | ${ok(h.lat.p50 < 5 && h.lat.p95 < 10 && h.lat.p99 < 20)} |`,
    )
  }
  p(`| spec: > 10,000 req/s (check miss, peak) | ${int(missRps)} | ${ok(missRps > 10_000)} |`)
}
console.log(out.join('\n'))
process.exit(0)
