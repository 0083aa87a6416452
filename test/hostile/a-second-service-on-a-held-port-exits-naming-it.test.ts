// A second `ganglion orchestrator` on the port a live one holds stops at once, exit code 1, with a
// message naming the port, before it opens a database; the first keeps answering.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t, { type Test } from 'tap'
import { startGanglionProcess } from '../fixtures/ganglion-process.js'
import { freePort } from '../helpers/free-port.js'

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))

function tempDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'ganglion-port-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

t.test('the second orchestrator exits 1 naming the port; the first still answers', async (t) => {
  const port = await freePort()
  const first = await startGanglionProcess(['orchestrator'], port, { DATA_DIR: tempDir(t) })
  t.teardown(() => first.stop())

  const secondDir = tempDir(t)
  const second = spawnSync(process.execPath, [CLI, 'orchestrator', '--port', String(port)], {
    env: { ...process.env, HOST: '127.0.0.1', DATA_DIR: secondDir, LOG_LEVEL: 'WARNING' },
    encoding: 'utf8',
    timeout: 60_000,
  })
  t.equal(second.status, 1, second.stderr)
  t.match(second.stderr, `port ${port} on 127.0.0.1 is already in use`)
  t.notMatch(second.stderr, 'listening')

  for (let i = 0; i < 10; i++) {
    const res = await fetch(`${first.url}/api/v1/health`)
    t.equal(res.status, 200, `health ${i}`)
    await res.arrayBuffer()
  }
})
