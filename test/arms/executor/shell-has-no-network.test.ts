import t from 'tap'

import { call, executor } from './executor-fixture.js'

// No allowed command can open a socket, so the evidence is the kernel's own view: the sandbox's
// network namespace has only a loopback interface, and it is down (no bytes, no routes).
t.test('the only network interface inside is an unused lo', async (t) => {
  const dev = (await call(executor(), 'shell', { command: 'cat', args: ['/proc/net/dev'] })) as { stdout: string }
  const interfaces = dev.stdout
    .split('\n')
    .slice(2)
    .filter(Boolean)
    .map((line) => line.split(':')[0]!.trim())
  t.same(interfaces, ['lo'])
  const route = (await call(executor(), 'shell', { command: 'cat', args: ['/proc/net/route'] })) as { stdout: string }
  t.equal(route.stdout.trim().split('\n').length, 1, 'the routing table has its header only')
})

t.test('the host has more than lo, so the check above means something', async (t) => {
  const { readFileSync } = await import('node:fs')
  const host = readFileSync('/proc/net/dev', 'utf8').split('\n').slice(2).filter(Boolean)
  t.ok(host.length > 1, 'the host has a non-loopback interface')
})
