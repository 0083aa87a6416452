// Every form with which an allowed command would start another program, write or delete files, or
// read a program that cannot be checked is COMMAND_NOT_ALLOWED before anything runs: GNU sort's
// and split's program options in every abbreviation getopt accepts, find's -exec family and file
// writers, tar's program options (long, short, clustered, old style), awk programs that call
// system(), pipe, or load code, and sed scripts with the e or w commands or flags. The same
// commands with harmless arguments still run.
import t from 'tap'

import { call, executor } from './executor-fixture.js'

const arm = executor({ shellAllow: ['sort', 'split', 'find', 'tar', 'awk', 'sed', 'echo'] })

const REFUSED: Array<[string, string[]]> = [
  ['sort', ['-S', '64K', '--compress-program=/usr/bin/true']],
  ['sort', ['--compress-prog=/usr/bin/true']],
  ['sort', ['--co=/usr/bin/true']],
  ['split', ['--filter=/usr/bin/true']],
  ['split', ['--fil', '/usr/bin/true']],
  ['find', ['/tmp', '-exec', '/usr/bin/true', ';']],
  ['find', ['/tmp', '-execdir', '/usr/bin/true', '{}', '+']],
  ['find', ['/tmp', '-ok', '/usr/bin/true', ';']],
  ['find', ['/tmp', '-okdir', '/usr/bin/true', ';']],
  ['find', ['/', '-fprint', '/tmp/out']],
  ['find', ['/', '-fprint0', '/tmp/out']],
  ['find', ['/', '-fprintf', '/tmp/out', '%p']],
  ['find', ['/', '-fls', '/tmp/out']],
  ['find', ['/tmp', '-delete']],
  ['tar', ['-xf', '/dev/stdin', '--to-command=/usr/bin/true']],
  ['tar', ['-xf', '/dev/stdin', '--to-com', '/usr/bin/true']],
  ['tar', ['-cf', '/tmp/a', '--use-compress-program=/usr/bin/true', '/tmp']],
  ['tar', ['-I', '/usr/bin/true', '-cf', '/tmp/a', '/tmp']],
  ['tar', ['-xI', '/usr/bin/true', '-f', '/dev/stdin']],
  ['tar', ['xIf', '/usr/bin/true', '/dev/stdin']],
  ['tar', ['-cf', '/tmp/a', '--checkpoint-action=exec=/usr/bin/true', '/tmp']],
  ['tar', ['-cf', '/tmp/a', '--info-script=/usr/bin/true', '/tmp']],
  ['tar', ['-cf', '/tmp/a', '--new-volume-script=/usr/bin/true', '/tmp']],
  ['tar', ['-F', '/usr/bin/true', '-cf', '/tmp/a', '/tmp']],
  ['tar', ['-cf', 'host:/tmp/a', '--rsh-command=/usr/bin/true', '/tmp']],
  ['tar', ['-cf', 'host:/tmp/a', '--rmt-command=/usr/bin/true', '/tmp']],
  ['awk', ['BEGIN { system("id") }']],
  ['awk', ['BEGIN { system ("id") }']],
  ['awk', ['{ print | "cat" }']],
  ['awk', ['BEGIN { "date" | getline d; print d }']],
  ['awk', ['{ print |& "cat" }']],
  ['awk', ['@load "filefuncs"; BEGIN { }']],
  ['awk', ['BEGIN { f = "system"; @f("id") }']],
  ['awk', ['BEGIN { a++ / 1; system("id"); b = 1 / 2 }']],
  ['awk', ['-v', 'x=1', '-F', ':', 'BEGIN { system("id") }']],
  ['awk', ['--', 'BEGIN { system("id") }']],
  ['awk', ['-e', 'BEGIN { system("id") }']],
  ['awk', ['--source=BEGIN { system("id") }']],
  ['awk', ['-f', '/dev/stdin']],
  ['awk', ['-f/dev/stdin']],
  ['awk', ['--file=/dev/stdin']],
  ['awk', ['-E', '/dev/stdin']],
  ['awk', ['--exec', '/dev/stdin']],
  ['awk', ['-i', '/dev/stdin', '{ }']],
  ['awk', ['--include=x', '{ }']],
  ['awk', ['-l', 'filefuncs', '{ }']],
  ['awk', ['--load=filefuncs', '{ }']],
  ['awk', ['-W', 'exec', '/dev/stdin']],
  ['sed', ['1e id']],
  ['sed', ['e']],
  ['sed', ['s/a/id/e']],
  ['sed', ['/x/ e id']],
  ['sed', ['1!e id']],
  ['sed', ['1,3e id']],
  ['sed', ['/a/,/b/ { e id\n}']],
  ['sed', ['w /tmp/out']],
  ['sed', ['W /tmp/out']],
  ['sed', ['s/a/b/w /tmp/out']],
  ['sed', ['s/a/b/gw /tmp/out']],
  ['sed', ['y/ab/cd/;e id']],
  ['sed', ['s/[/]/x/e']],
  ['sed', ['s/[]/]/x/e']],
  ['sed', ['s/[[:alpha:]/]/x/e']],
  ['sed', ['s/[\\]/x/e']],
  ['sed', ['s/a/b/', '-e', '1e id']],
  ['sed', ['-e', 's/a/b/', '-e', '1e id']],
  ['sed', ['-ne', 'e id']],
  ['sed', ['--expression=1e id']],
  ['sed', ['--expr', '1e id']],
  ['sed', ['-f', '/dev/stdin']],
  ['sed', ['--file=/dev/stdin']],
]

for (const [command, args] of REFUSED) {
  t.test(`${command} ${JSON.stringify(args)} is COMMAND_NOT_ALLOWED`, async (t) => {
    await t.rejects(call(arm, 'shell', { command, args, stdin: 'a\nb\n' }), {
      code: 'COMMAND_NOT_ALLOWED',
      retryable: false,
      message: /would (start another program|write or delete files|read its program from a file|run a program that)/,
    })
  })
}

const ALLOWED: Array<[string, string[], string, string]> = [
  ['sort', ['-r'], 'a\nc\nb\n', 'c\nb\na\n'],
  ['sort', ['--check=quiet'], 'a\nb\n', ''],
  ['awk', ['{ print $2 }'], 'a b\nc d\n', 'b\nd\n'],
  ['awk', ['/a|c/ { n++ } END { print n }'], 'a\nb\nc\n', '2\n'],
  ['awk', ['$1 == "a" || $1 == "c"'], 'a\nb\nc\n', 'a\nc\n'],
  ['awk', ['BEGIN { s = "system(|)"; print s }'], '', 'system(|)\n'],
  ['awk', ['{ print length($0) / 2 }'], 'abcd\n', '2\n'],
  ['awk', ['-F', ':', '-v', 'k=2', '{ print $k }'], 'a:b\n', 'b\n'],
  ['sed', ['s/e/E/g'], 'eee\n', 'EEE\n'],
  ['sed', ['y/ew/EW/'], 'ew\n', 'EW\n'],
  ['sed', ['-n', '/e/p'], 'e\nx\n', 'e\n'],
  ['sed', ['s/[/]/x/'], 'a/b\n', 'axb\n'],
  ['sed', ['s/x/y/;s/w/z/'], 'xw\n', 'yz\n'],
  ['sed', ['1i eww'], 'a\n', 'eww\na\n'],
  ['sed', ['-E', '-e', 's/(e)+/w/'], 'ee\n', 'w\n'],
]

for (const [command, args, stdin, stdout] of ALLOWED) {
  t.test(`${command} ${JSON.stringify(args)} runs`, async (t) => {
    t.match(await call(arm, 'shell', { command, args, stdin }), { exit_code: 0, stdout })
  })
}

t.test('find and tar without those options run', async (t) => {
  t.match(await call(arm, 'shell', { command: 'find', args: ['/tmp', '-maxdepth', '0'] }), { stdout: '/tmp\n' })
  t.match(await call(arm, 'shell', { command: 'tar', args: ['--version'] }), { exit_code: 0, stdout: /tar/ })
})
