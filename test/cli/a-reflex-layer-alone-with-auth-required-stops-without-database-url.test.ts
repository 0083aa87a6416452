// `ganglion reflex` with AUTH=required checks API keys in the database the orchestrator shares;
// the embedded PGlite is one process's, so without DATABASE_URL it stops at once with exit 2 and
// says what to set, before listening.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { ensureBuilt } from '../fixtures/ganglion-process.js'

const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url))

t.test('a reflex layer alone with AUTH=required stops without DATABASE_URL', async (t) => {
  ensureBuilt()
  const run = spawnSync(process.execPath, [CLI, 'reflex', '--port', '0'], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env.PATH ?? '', AUTH: 'required', HOST: '127.0.0.1', DATA_DIR: 'memory://' },
  })
  t.equal(run.status, 2)
  t.match(run.stderr, 'Invalid configuration (1 problem)')
  t.match(run.stderr, 'AUTH=required')
  t.match(run.stderr, 'set DATABASE_URL')
})
