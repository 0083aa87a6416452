// The first key of a new deployment: with AUTH=required and no ADMIN_TOKEN nothing can call the
// API, so an operator creates an admin key with `ganglion keys create` on the data directory, then
// starts the service on it; the key works there, and creates the next keys over HTTP.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { ensureBuilt } from '../fixtures/ganglion-process.js'
import { postJson, startServices } from '../helpers/servers.js'

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))
// A CLI run and a service start on PGlite, seconds each on a busy machine.
t.setTimeout(240_000)

t.test('a key the CLI created works on a service started on that database', { timeout: 240_000 }, async (t) => {
  ensureBuilt()
  const dataDir = mkdtempSync(join(tmpdir(), 'ganglion-first-key-'))
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }))
  const created = spawnSync(process.execPath, [CLI, 'keys', 'create', '--tenant', 'ops', '--role', 'admin', '--name', 'first'], {
    encoding: 'utf8',
    timeout: 120_000,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir },
  })
  t.equal(created.status, 0, created.stderr)
  const key = created.stdout.trim()

  const running = await startServices(t, { reflex: true, orchestrator: true }, { AUTH: 'required', DATA_DIR: dataDir })
  const orchestrator = `http://127.0.0.1:${running.ports.orchestrator}`
  t.equal((await fetch(`${orchestrator}/api/v1/tasks`)).status, 401, 'nothing works without a credential')
  const next = await postJson(
    `${orchestrator}/api/v1/api-keys`,
    { tenant: 'ops', role: 'service', name: 'deployer' },
    { authorization: `Bearer ${key}` },
  )
  t.equal(next.status, 201, 'the first key creates the next')
  const check = await postJson(
    `http://127.0.0.1:${running.ports.reflex}/api/v1/check`,
    { text: 'hi' },
    { authorization: `Bearer ${(await next.json()).key}` },
  )
  t.equal(check.status, 200, 'which works on the reflex layer')
})
