import t from 'tap'

import { call, executor } from './executor-fixture.js'
import { processesRunning } from './sandboxed-processes.js'

t.test('output past the cap is cut, the command killed, truncated reported', async (t) => {
  const arm = executor({ limits: { shellOutputBytes: 1000 } })
  const started = Date.now()
  // `seq 1 1000000000` would write about 10 GB: only the cap ends it.
  const out = (await call(arm, 'shell', { command: 'seq', args: ['1', '1000000000'] })) as Record<string, unknown>
  t.ok(Date.now() - started < 5000, 'killed quickly')
  t.match(out, { truncated: true, exit_code: null, signal: 'SIGKILL' })
  t.equal(Buffer.byteLength(out.stdout as string), 1000)
  t.ok((out.stdout as string).startsWith('1\n2\n3\n'))
  t.same(processesRunning(['/usr/bin/seq', '1', '1000000000']), [], 'no seq left running')
})

t.test('the default cap is 1 MiB per stream', async (t) => {
  const out = (await call(executor(), 'shell', { command: 'seq', args: ['1', '1000000000'] })) as Record<string, unknown>
  t.equal(Buffer.byteLength(out.stdout as string), 1024 * 1024)
  t.equal(out.truncated, true)
})

// Pipe reads come in 64 KiB chunks, so a cap of a multiple of that is often filled exactly by one
// chunk: the next byte, not the filling one, is what cuts the output and kills the command.
t.test('output that fills the cap exactly and goes on is cut and killed', async (t) => {
  const arm = executor({ limits: { shellOutputBytes: 64 * 1024 } })
  for (let run = 0; run < 8; run++) {
    const out = (await call(arm, 'shell', { command: 'seq', args: ['1', '1000000000'] })) as Record<string, unknown>
    t.match(out, { truncated: true, signal: 'SIGKILL' }, `run ${run}`)
  }
})

t.test('output of exactly the cap that ends there is whole, not truncated', async (t) => {
  const arm = executor({ limits: { shellOutputBytes: 1000 } })
  const out = (await call(arm, 'shell', { command: 'head', args: ['-c', '1000', '/dev/zero'] })) as Record<string, unknown>
  t.match(out, { truncated: false, exit_code: 0 })
  t.equal(Buffer.byteLength(out.stdout as string), 3000, '1,000 NUL bytes read as U+FFFD, three bytes each')
})
