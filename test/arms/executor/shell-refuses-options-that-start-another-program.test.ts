// GNU sort starts any program by path with --compress-program (no shell needed), and the sandbox
// mounts /usr/lib, where other executables live: the option, in each abbreviation getopt accepts,
// is refused before anything runs. Plain sort still works.
import t from 'tap'

import { call, executor } from './executor-fixture.js'

for (const option of ['--compress-program=/usr/bin/true', '--compress-prog=/usr/bin/true', '--co=/usr/bin/true']) {
  t.test(`sort ${option} is COMMAND_NOT_ALLOWED`, async (t) => {
    await t.rejects(call(executor(), 'shell', { command: 'sort', args: ['-S', '64K', option], stdin: 'b\na\n' }), {
      code: 'COMMAND_NOT_ALLOWED',
      retryable: false,
      message: /would start another program/,
    })
  })
}

t.test('sort without it sorts', async (t) => {
  t.match(await call(executor(), 'shell', { command: 'sort', args: ['-r'], stdin: 'a\nc\nb\n' }), { stdout: 'c\nb\na\n' })
})
