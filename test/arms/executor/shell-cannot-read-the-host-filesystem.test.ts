import { readFileSync } from 'node:fs'

import t from 'tap'

import { call, executor } from './executor-fixture.js'

const repoFile = new URL('../../../package.json', import.meta.url).pathname

t.test('/etc/passwd does not exist inside the sandbox', async (t) => {
  const passwd = readFileSync('/etc/passwd', 'utf8')
  const err = await call(executor(), 'shell', { command: 'cat', args: ['/etc/passwd'] }).catch((e: unknown) => e)
  t.match(err, { code: 'COMMAND_FAILED', message: /No such file or directory/ })
  t.notMatch((err as Error).message, passwd.split('\n')[0]!)
})

t.test('the working tree is not visible', async (t) => {
  const err = await call(executor(), 'shell', { command: 'cat', args: [repoFile] }).catch((e: unknown) => e)
  t.match(err, { code: 'COMMAND_FAILED', message: /No such file or directory/ })
  t.notMatch((err as Error).message, '"name": "ganglion"')
})

t.test('the root holds only what commands need; /usr/bin only the allowed command', async (t) => {
  const root = await call(executor(), 'shell', { command: 'ls', args: ['-A', '/'] })
  t.same((root as { stdout: string }).stdout.trim().split('\n').sort(), ['bin', 'dev', 'lib', 'lib64', 'proc', 'tmp', 'usr'])
  const bin = await call(executor(), 'shell', { command: 'ls', args: ['/usr/bin'] })
  t.equal((bin as { stdout: string }).stdout, 'ls\n')
  // /usr/lib: ls's own libraries and the locale, no other file (no program to start)
  const lib = (await call(executor(), 'shell', { command: 'ls', args: ['-R', '/usr/lib'] })) as { stdout: string }
  const files = lib.stdout.split('\n').filter((line) => /\.so(\.|$)/.test(line))
  t.ok(files.includes('libc.so.6'), lib.stdout)
  t.ok(files.length <= 8, `only the libraries ls loads: ${files.join(' ')}`)
  t.notMatch(lib.stdout, /postgresql|git-core|gcc|python|node_modules/)
})

t.test('nothing outside /tmp is writable, the root included', async (t) => {
  for (const target of ['/x', '/usr/x', '/usr/lib/x'])
    await t.rejects(
      call(executor(), 'shell', { command: 'sort', args: ['-o', target, '/dev/null'] }),
      { code: 'COMMAND_FAILED', message: /Read-only file system/ },
      target,
    )
})

t.test('the system is read-only; /tmp is private and writable', async (t) => {
  const arm = executor()
  await t.rejects(call(arm, 'shell', { command: 'sort', args: ['-o', '/usr/lib/x', '/dev/null'] }), { code: 'COMMAND_FAILED' })
  t.match(await call(arm, 'shell', { command: 'sort', args: ['-o', '/tmp/x', '/dev/null'] }), { exit_code: 0 })
  t.match(await call(arm, 'shell', { command: 'ls', args: ['-A', '/tmp'] }), { stdout: '' }, 'each command gets a fresh /tmp')
})

t.test('the environment is cleared', async (t) => {
  process.env.EXECUTOR_TEST_SECRET = 'hunter2'
  t.teardown(() => {
    delete process.env.EXECUTOR_TEST_SECRET
  })
  const out = await call(executor(), 'shell', { command: 'cat', args: ['/proc/self/environ'] })
  // NUL bytes come back as U+FFFD, which a store can keep.
  t.same((out as { stdout: string }).stdout.split('\uFFFD').filter(Boolean).sort(), [
    'HOME=/tmp',
    'LANG=C.UTF-8',
    'PATH=/usr/bin',
    'PWD=/tmp',
  ])
})
