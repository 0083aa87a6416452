// `ganglion arm <name>` names one of the six arms and a port in 0..65535; anything else stops at
// once with exit code 2 and says what is allowed, before any service starts.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { ensureBuilt } from '../fixtures/ganglion-process.js'

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))

function ganglion(...args: string[]): { status: number | null; stderr: string } {
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 30_000 })
  return { status: run.status, stderr: run.stderr }
}

t.test('an unknown arm', async (t) => {
  ensureBuilt()
  const { status, stderr } = ganglion('arm', 'translator')
  t.equal(status, 2)
  t.match(stderr, 'unknown arm "translator": must be one of planner, executor, coder, judge, guardian, retriever')
})

t.test('a port that is no port', async (t) => {
  ensureBuilt()
  for (const port of ['http', '65536']) {
    const { status, stderr } = ganglion('arm', 'judge', '--port', port)
    t.equal(status, 2, port)
    t.match(stderr, `--port "${port}": must be an integer 0..65535`, port)
  }
})
