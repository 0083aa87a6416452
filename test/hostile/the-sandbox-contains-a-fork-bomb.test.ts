// A program that forks without end, in the executor's sandbox: RLIMIT_NPROC (per host uid, so
// per command when the service is root) holds it to its process limit, its forks past that fail
// with EAGAIN, and the executor's kill (process-tree.ts) leaves none of its processes behind.
import { readdirSync, readFileSync } from 'node:fs'
import t from 'tap'

import { killTree } from '../../src/arms/executor/process-tree.js'
import { SANDBOX_UID_BASE } from '../../src/arms/executor/uid-pool.js'
import { compiled, HAS_COMPILER, startInSandbox } from './sandbox/run-in-sandbox.js'

// A host uid of the sandbox range no executor in this test process hands out.
const HOST_ID = SANDBOX_UID_BASE + 4000
const PROCESSES = 16
const EAGAIN = 11

/** The processes whose real uid is `uid`, from /proc. */
function processesOf(uid: number): number {
  let count = 0
  for (const entry of readdirSync('/proc')) {
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8')
      const real = status.split('\n').find((line) => line.startsWith('Uid:'))
      if (real?.split('\t')[1] === String(uid)) count++
    } catch {
      /* not a process, or exited while we looked */
    }
  }
  return count
}

t.test(
  'a fork bomb stays within its process limit and nothing of it survives the kill',
  { skip: (!HAS_COMPILER && 'no C compiler') || (process.getuid?.() !== 0 && 'the per-command uid needs root') },
  async (t) => {
    const binary = compiled(t, 'fork-bomb')
    const child = await startInSandbox('fork-bomb', binary, [], { limits: { shellProcesses: PROCESSES }, hostId: HOST_ID })
    let stderr = ''
    child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s))
    const closed = new Promise((resolve) => child.on('close', resolve))

    let most = 0
    const end = Date.now() + 1_500
    while (Date.now() < end) {
      most = Math.max(most, processesOf(HOST_ID))
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    t.ok(most > 1, `it forked (${most} processes at most)`)
    t.ok(most <= PROCESSES, `never more than ${PROCESSES} processes: ${most}`)
    t.match(stderr, `fork refused: errno ${EAGAIN}`)

    killTree(child.pid!)
    await closed
    const deadline = Date.now() + 2_000
    while (processesOf(HOST_ID) > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
    t.equal(processesOf(HOST_ID), 0, 'none left')
  },
)
