import t from 'tap'

import { call, executor } from './executor-fixture.js'

t.test('a non-zero exit is COMMAND_FAILED with the code and stderr', async (t) => {
  await t.rejects(call(executor(), 'shell', { command: 'grep', args: ['-E', '('], stdin: 'x' }), {
    code: 'COMMAND_FAILED',
    retryable: false,
    message: /'grep' exited with code 2: .*grep: /,
  })
})

t.test('allow_nonzero_exit returns the output instead', async (t) => {
  const out = await call(executor(), 'shell', { command: 'grep', args: ['nope'], stdin: 'a\nb\n', allow_nonzero_exit: true })
  t.match(out, { exit_code: 1, stdout: '', truncated: false })
})
