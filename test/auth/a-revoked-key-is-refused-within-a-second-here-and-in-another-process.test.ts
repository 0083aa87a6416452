// A verified key is taken on trust for a second at most, so a revocation is in force everywhere
// within about a second: in the process that revoked it (orchestrator and reflex layer on one
// PGlite), and in another process on the same PostgreSQL (here an orchestrator in a child process
// revokes, and a reflex layer running alone in this one refuses it).
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { postJson, startServices } from '../helpers/servers.js'
import { freshDatabase, SKIP_PG } from '../stores/pg-schema.js'
import { ADMIN_TOKEN, AS_ADMIN, bearer } from './api-key-server.js'

const SCRIPT = fileURLToPath(new URL('../fixtures/api-process.ts', import.meta.url))
// Two services and a child process to start, on a machine that may be busy.
t.setTimeout(300_000)
/** The remembering second, plus room for a busy machine. */
const WITHIN_MS = 1_500

/** Sends `request` until it is a 401; how long that took, or Infinity past `WITHIN_MS` × 3. */
async function msUntilRefused(request: () => Promise<Response>, since: number): Promise<number> {
  for (;;) {
    const res = await request()
    await res.body?.cancel()
    if (res.status === 401) return Date.now() - since
    if (res.status !== 200) throw new Error(`expected 200 or 401, got ${res.status}`)
    if (Date.now() - since > WITHIN_MS * 3) return Number.POSITIVE_INFINITY
    await new Promise((r) => setTimeout(r, 25))
  }
}

t.test('in the process that revoked it, on both ports', async (t) => {
  const running = await startServices(t, { reflex: true, orchestrator: true }, { AUTH: 'required', ADMIN_TOKEN })
  const orchestrator = `http://127.0.0.1:${running.ports.orchestrator}`
  const reflex = `http://127.0.0.1:${running.ports.reflex}`
  const { id, key } = await (
    await postJson(`${orchestrator}/api/v1/api-keys`, { tenant: 'acme', role: 'member', name: 'soon gone' }, AS_ADMIN)
  ).json()
  const useOrchestrator = () => fetch(`${orchestrator}/api/v1/tasks`, { headers: bearer(key) })
  const useReflex = () => postJson(`${reflex}/api/v1/check`, { text: 'hello' }, bearer(key))
  t.equal((await useOrchestrator()).status, 200, 'works, and is remembered')
  t.equal((await useReflex()).status, 200)

  const revoked = await fetch(`${orchestrator}/api/v1/api-keys/${id}`, { method: 'DELETE', headers: AS_ADMIN })
  t.equal(revoked.status, 200)
  const at = Date.now()
  const [byOrchestrator, byReflex] = await Promise.all([msUntilRefused(useOrchestrator, at), msUntilRefused(useReflex, at)])
  t.ok(byOrchestrator <= WITHIN_MS, `the orchestrator refuses it after ${byOrchestrator} ms`)
  t.ok(byReflex <= WITHIN_MS, `the reflex layer refuses it after ${byReflex} ms`)
})

t.test('in another process on the same PostgreSQL', { skip: SKIP_PG, timeout: 240_000 }, async (t) => {
  // The service keeps its tables in `public` and pg-boss in its own schema: a database of its own.
  const url = await freshDatabase(t, 'keys')
  const child = spawn(process.execPath, ['--import', '@tapjs/typescript/import', SCRIPT], {
    env: {
      ...process.env,
      DATABASE_URL: url,
      REDIS_URL: '',
      PORT: '0',
      HOST: '127.0.0.1',
      AUTH: 'required',
      ADMIN_TOKEN,
      TASK_WORKERS: '0',
      LOG_LEVEL: 'ERROR',
      TAP_TYPECHECK: '0',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  t.teardown(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const hard = setTimeout(() => child.kill('SIGKILL'), 10_000)
    await exited
    clearTimeout(hard)
  })
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('orchestrator not ready in 180 s')), 180_000)
    let out = ''
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const ready = /\{"ready":true,"port":(\d+)\}/.exec(out)
      if (ready) {
        clearTimeout(timer)
        resolve(Number(ready[1]))
      }
    })
    void exited.then(() => reject(new Error(`orchestrator exited (${child.exitCode ?? child.signalCode}) before ready`)))
  })
  const orchestrator = `http://127.0.0.1:${port}`
  // This process: the reflex layer alone, on the same database.
  const running = await startServices(t, { reflex: true }, { AUTH: 'required', ADMIN_TOKEN, DATABASE_URL: url })
  const reflex = `http://127.0.0.1:${running.ports.reflex}`

  const { id, key } = await (
    await postJson(`${orchestrator}/api/v1/api-keys`, { tenant: 'acme', role: 'service', name: 'shared' }, AS_ADMIN)
  ).json()
  const useOrchestrator = () => fetch(`${orchestrator}/api/v1/tasks`, { headers: bearer(key) })
  const useReflex = () => postJson(`${reflex}/api/v1/check`, { text: 'hello' }, bearer(key))
  t.equal((await useReflex()).status, 200, 'a key made by the other process works here')
  t.equal((await useOrchestrator()).status, 200, 'and there')

  const revoked = await fetch(`${orchestrator}/api/v1/api-keys/${id}`, { method: 'DELETE', headers: AS_ADMIN })
  t.equal(revoked.status, 200)
  const at = Date.now()
  const [byReflex, byOrchestrator] = await Promise.all([msUntilRefused(useReflex, at), msUntilRefused(useOrchestrator, at)])
  t.ok(byReflex <= WITHIN_MS, `this process refuses it after ${byReflex} ms`)
  t.ok(byOrchestrator <= WITHIN_MS, `the revoking process refuses it after ${byOrchestrator} ms`)
})
