import t from 'tap'

import { call, executor } from './executor-fixture.js'

t.test('the command runs under the CPU, memory, file size and process rlimits', async (t) => {
  const out = (await call(executor(), 'shell', { command: 'cat', args: ['/proc/self/limits'] })) as { stdout: string }
  const limit = (name: string): string[] => {
    const line = out.stdout.split('\n').find((l) => l.startsWith(name))
    return line ? line.slice(26).trim().split(/\s+/) : []
  }
  t.same(limit('Max cpu time').slice(0, 2), ['10', '10'])
  t.same(limit('Max address space').slice(0, 2), [String(256 * 1024 * 1024), String(256 * 1024 * 1024)])
  t.same(limit('Max file size').slice(0, 2), [String(16 * 1024 * 1024), String(16 * 1024 * 1024)])
  t.same(limit('Max processes').slice(0, 2), ['64', '64'])
  t.same(limit('Max core file size').slice(0, 2), ['0', '0'])
})

t.test('configured limits reach the sandbox', async (t) => {
  const arm = executor({ limits: { shellCpuSeconds: 3, shellProcesses: 16 } })
  const out = (await call(arm, 'shell', { command: 'grep', args: ['-E', 'Max (cpu time|processes)', '/proc/self/limits'] })) as {
    stdout: string
  }
  t.match(out.stdout, /Max cpu time\s+3\s+3/)
  t.match(out.stdout, /Max processes\s+16\s+16/)
})

t.test('as root, the command runs as an unprivileged user', { skip: process.getuid?.() !== 0 && 'not running as root' }, async (t) => {
  const out = (await call(executor(), 'shell', { command: 'grep', args: ['^Uid:', '/proc/self/status'] })) as { stdout: string }
  t.match(out.stdout, /^Uid:\s+65534\s+65534\s+65534\s+65534/)
})
