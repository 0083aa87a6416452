import t from 'tap'

import { call, executor } from './executor-fixture.js'

for (const command of ['curl', 'sh', 'bash', 'python3', '/bin/cat', '/usr/bin/wc', '../x', 'cat;id', 'wc -l', '']) {
  t.test(`'${command}' is COMMAND_NOT_ALLOWED`, async (t) => {
    await t.rejects(call(executor(), 'shell', { command }), { code: 'COMMAND_NOT_ALLOWED', retryable: false })
  })
}

t.test('a configured list narrows what runs', async (t) => {
  const arm = executor({ shellAllow: ['wc'] })
  await t.rejects(call(arm, 'shell', { command: 'cat', stdin: 'x' }), { code: 'COMMAND_NOT_ALLOWED' })
  t.match(await call(arm, 'shell', { command: 'wc', args: ['-c'], stdin: 'abc' }), { stdout: '3\n' })
})

t.test('shells, interpreters and network tools cannot be configured in', async (t) => {
  for (const name of ['sh', 'python3', 'curl', 'env', 'xargs', 'git', 'less', 'vi', 'ed', 'dc', 'python3.11', 'perl5.36']) {
    t.throws(() => executor({ shellAllow: ['wc', name] }), /never allowed/)
  }
  t.throws(() => executor({ shellAllow: ['/bin/cat'] }), /not a bare command name/)
})
