// kill -9 the API while concurrent submissions are being group-committed: every task that was
// answered 201 exists afterwards with its task.created event and both its jobs, and every task that
// exists at all has both jobs (a batch committed whole or not at all), whether or not its answer
// got out before the kill.
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import t from 'tap'
import { DATABASE_URL, SKIP_PG } from '../stores/pg-schema.js'

const SCRIPT = fileURLToPath(new URL('../fixtures/api-process.ts', import.meta.url))
const LOOPS = 24

t.test('acknowledged submissions survive a crash of the API mid-batch', { skip: SKIP_PG, timeout: 300_000 }, async (t) => {
  // The service uses schema public and pg-boss its own: a database of its own keeps both apart.
  const name = `crash_${randomBytes(5).toString('hex')}`
  const admin = new pg.Client({ connectionString: DATABASE_URL })
  await admin.connect()
  await admin.query(`create database ${name}`)
  const url = new URL(DATABASE_URL!)
  url.pathname = `/${name}`
  t.teardown(async () => {
    await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1`, [name])
    await admin.query(`drop database if exists ${name}`)
    await admin.end()
  })

  const port = 20_000 + Math.floor(Math.random() * 20_000)
  const child = spawn(process.execPath, ['--import', '@tapjs/typescript/import', SCRIPT], {
    env: {
      // No REDIS_URL: a goal whose result an earlier run left in a shared cache would be answered
      // from it (completed, cached, rightly without jobs) instead of taking the path under test.
      ...process.env,
      REDIS_URL: '',
      DATABASE_URL: url.toString(),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: 'memory://',
      LOG_LEVEL: 'ERROR',
      RATE_LIMIT_PER_IP: '1000000',
      RATE_LIMIT_PER_USER: '1000000',
      TAP_TYPECHECK: '0',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? String(code))))
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  })
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('API not ready in 180 s')), 180_000)
    child.stdout!.on('data', (d: Buffer) => {
      if (d.toString().includes('"ready":true')) {
        clearTimeout(timer)
        resolve()
      }
    })
    void exited.then((how) => reject(new Error(`API exited (${how}) before ready`)))
  })

  const acknowledged: string[] = []
  let refused = 0
  let stop = false
  const loop = async (n: number): Promise<void> => {
    for (let i = 0; !stop; i++) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/v1/tasks`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ goal: `crash test ${n}.${i}: summarise the notes` }),
        })
        if (res.status === 201) acknowledged.push(((await res.json()) as { task_id: string }).task_id)
        else refused++
      } catch {
        return // the connection died with the process: this request was never acknowledged
      }
    }
  }
  const loops = Array.from({ length: LOOPS }, (_, n) => loop(n))
  // Kill once submissions are flowing, so batches are in flight at the kill.
  while (acknowledged.length < 200) await new Promise((r) => setTimeout(r, 20))
  child.kill('SIGKILL')
  t.equal(await exited, 'SIGKILL')
  stop = true
  await Promise.all(loops)
  t.equal(refused, 0, 'no submission was refused before the kill')
  t.comment(`${acknowledged.length} submissions acknowledged before the kill`)

  const db = new pg.Client({ connectionString: url.toString() })
  await db.connect()
  t.teardown(() => db.end())
  const { rows } = await db.query<{ task_id: string; events: number; runs: number; timeouts: number }>(`
    select t.task_id,
           (select count(*)::int from task_events e where e.task_id = t.task_id and e.seq = 1 and e.type = 'task.created') as events,
           (select count(*)::int from pgboss.job j where j.name = 'task.run' and j.data->>'task_id' = t.task_id) as runs,
           (select count(*)::int from pgboss.job j where j.name = 'task.timeout' and j.data->>'task_id' = t.task_id) as timeouts
      from tasks t`)
  const stored = new Map(rows.map((r) => [r.task_id, r]))
  const lost = acknowledged.filter((id) => !stored.has(id))
  t.same(lost, [], 'every acknowledged task is stored')
  const incomplete = rows.filter((r) => r.events !== 1 || r.runs !== 1 || r.timeouts !== 1)
  t.same(incomplete, [], 'every stored task has its task.created event, one task.run and one task.timeout')
  t.ok(
    rows.length >= acknowledged.length,
    `${rows.length} stored, ${rows.length - acknowledged.length} committed but unanswered at the kill`,
  )
})
