// The shell sandbox's seccomp filter, seen from inside a real bubblewrap sandbox: a small C program
// (sandbox/syscall-probe.c) tries each refused system call with arguments that work without the
// filter, and every one fails with EPERM (clone3 with ENOSYS, so glibc falls back to clone), while
// threads, fork and a plain clone still work. util-linux `unshare -U` fails with "Operation not
// permitted". Both run through the executor's own command line (sandboxArgv, spawnSandbox).
import { execFileSync } from 'node:child_process'
import t from 'tap'

import { compiled, HAS_COMPILER, inSandbox } from './sandbox/run-in-sandbox.js'

const EPERM = 1
const ENOSYS = 38

const REFUSED = [
  'ptrace',
  'keyctl',
  'unshare',
  'clone_newuser',
  'clone_newnet',
  'setns',
  'mount',
  'io_uring_setup',
  'userfaultfd',
  'perf_event_open',
  'bpf',
  'process_vm_readv',
  'ioctl_tiocsti',
  'x32_getpid',
]

t.test(
  'each refused system call fails with EPERM; threads, fork and clone still work',
  { skip: !HAS_COMPILER && 'no C compiler' },
  async (t) => {
    const binary = compiled(t, 'syscall-probe')
    const run = await inSandbox('syscall-probe', binary, [])
    t.equal(run.code, 0, run.stderr)
    const errno = new Map(
      run.stdout
        .trim()
        .split('\n')
        .map((line) => [line.split(' ')[0]!, Number(line.split(' ')[1])] as const),
    )
    for (const call of REFUSED) t.equal(errno.get(call), EPERM, `${call}: EPERM`)
    t.equal(errno.get('clone3'), ENOSYS, 'clone3: ENOSYS, so glibc falls back to clone')
    for (const call of ['plain_clone', 'thread', 'fork']) t.equal(errno.get(call), 0, `${call} works`)
  },
)

t.test('`unshare -U` is refused with "Operation not permitted"', async (t) => {
  const run = await inSandbox('unshare', '/usr/bin/unshare', ['-U', '/usr/bin/unshare'])
  t.not(run.code, 0)
  t.match(run.stderr, /unshare failed: Operation not permitted/)
})

t.test('the command holds none of the pipes the programs came on', async (t) => {
  // Node's pipes are socket pairs: the command's stdout and stderr are two, fds 3 and 4 were the others.
  const ls = execFileSync('readlink', ['-f', '/usr/bin/ls'], { encoding: 'utf8' }).trim()
  const run = await inSandbox('ls', ls, ['-l', '/proc/self/fd/'])
  t.equal(run.code, 0, run.stderr)
  const sockets = run.stdout
    .split('\n')
    .map((line) => line.split(' ').slice(-3))
    .filter(([fd, arrow, target]) => arrow === '->' && Number(fd) > 2 && target!.startsWith('socket:'))
  t.same(sockets, [], 'no socket past stderr')
  t.match(run.stdout, / 1 -> socket:/, 'stdout is one, so sockets show here')
})
