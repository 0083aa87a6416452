import { spawn } from 'node:child_process'
import t from 'tap'

import { descendants, killTree } from '../../../src/arms/executor/process-tree.js'
import { processesRunning, waitUntil } from './sandboxed-processes.js'

// bubblewrap's sandbox init runs in a session of its own, out of the process group the shell
// tool starts: a process that called setsid stands in for it here.
const ESCAPED = ['sleep', '37']

t.test('killTree kills a descendant that left the process group, which a group kill misses', async (t) => {
  const parent = spawn('sh', ['-c', 'setsid sleep 37 & wait'], { detached: true, stdio: 'ignore' })
  const closed = new Promise((resolve) => parent.on('close', resolve))
  t.ok(await waitUntil(() => processesRunning(ESCAPED).length > 0, 5000), 'the escaped sleep runs')
  t.ok(descendants(parent.pid!).length >= 1, 'it is found below the parent')

  process.kill(-parent.pid!, 'SIGKILL')
  await closed
  t.equal(processesRunning(ESCAPED).length, 1, 'a kill of the group leaves it running')
  for (const pid of processesRunning(ESCAPED)) process.kill(pid, 'SIGKILL')

  const again = spawn('sh', ['-c', 'setsid sleep 37 & wait'], { detached: true, stdio: 'ignore' })
  const closedAgain = new Promise((resolve) => again.on('close', resolve))
  t.ok(await waitUntil(() => processesRunning(ESCAPED).length > 0, 5000))
  killTree(again.pid!)
  await closedAgain
  t.ok(await waitUntil(() => processesRunning(ESCAPED).length === 0, 5000), 'killTree leaves nothing running')
})

t.test('a process with no children has no descendants; a gone one is not an error', async (t) => {
  t.same(descendants(2 ** 22 + 12345), [])
  t.doesNotThrow(() => killTree(2 ** 22 + 12345))
})
