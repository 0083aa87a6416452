import t from 'tap'

import { UidPool } from '../../../src/arms/executor/uid-pool.js'
import { call, executor } from './executor-fixture.js'

t.test('the uid pool hands out free ids and reuses released ones', async (t) => {
  const pool = new UidPool(1000, 3)
  const [a, b, c] = [pool.acquire(), pool.acquire(), pool.acquire()]
  t.same([a, b, c], [1000, 1001, 1002])
  pool.release(b)
  t.equal(pool.acquire(), 1001, 'the only free one')
  t.equal(pool.active, 3)
  const shared = pool.acquire()
  t.ok(shared >= 1000 && shared < 1003, 'all taken: an id is shared rather than refusing')
  pool.release(a)
  pool.release(shared)
  t.equal(pool.active, 1)
})

t.test(
  'as root, 30 commands at once all run, each as uid 65534 in its own sandbox',
  { skip: process.getuid?.() !== 0 && 'not running as root' },
  async (t) => {
    // Each sandbox holds about three processes (bubblewrap, its init, the command) against a limit
    // of 64 per host uid: one shared uid would fail the 22nd command with "Resource temporarily unavailable".
    const arm = executor({ limits: { shellSandboxes: 30 } })
    const outs = await Promise.all(
      Array.from({ length: 30 }, () => call(arm, 'shell', { command: 'grep', args: ['^Uid:', '/proc/self/status'], timeout_ms: 60_000 })),
    )
    for (const out of outs) t.match((out as { stdout: string }).stdout, /^Uid:\s+65534\s+65534\s+65534\s+65534/)

    const slow = await Promise.allSettled(
      Array.from({ length: 30 }, () => call(arm, 'shell', { command: 'sleep', args: ['1'], timeout_ms: 60_000 })),
    )
    t.same(
      slow.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason)),
      [],
      'none failed',
    )
  },
)
