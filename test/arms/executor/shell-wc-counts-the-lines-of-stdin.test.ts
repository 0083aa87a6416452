import t from 'tap'

import { call, executor } from './executor-fixture.js'

t.test('wc -l on stdin returns the count in a sandbox', async (t) => {
  const out = await call(executor(), 'shell', { command: 'wc', args: ['-l'], stdin: 'one\ntwo\nthree\n' })
  t.match(out, { exit_code: 0, stdout: '3\n', stderr: '', truncated: false, signal: null })
  t.type((out as { duration_ms: number }).duration_ms, 'number')
})

t.test('arguments reach the command as argv, never through a shell', async (t) => {
  const out = await call(executor(), 'shell', { command: 'echo', args: ['$HOME', '; ls', '`id`', '*'] })
  t.match(out, { exit_code: 0, stdout: '$HOME ; ls `id` *\n' })
})
