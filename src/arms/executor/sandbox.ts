/**
 * The bubblewrap command line that confines one shell command, and the check that bubblewrap works
 * here at all. The sandbox sees only the command it runs (bound into /usr/bin), the shared
 * libraries that command loads (as `ldd` lists them on the command's first run) and the C.UTF-8
 * locale, a fresh /proc and /dev, and a private size-limited /tmp; the rest of the root is
 * read-only and empty: no other program (so no option can start one), no /etc, /home, /root or
 * working tree, no network (a new, empty network namespace), no environment but PATH, LANG and HOME. Limits are rlimits set by util-linux `prlimit` before bubblewrap starts, so they bind
 * everything inside. Running as root, `setpriv` first drops to an unprivileged host uid/gid
 * (`hostId`, one per running command: uid-pool.ts) that the sandbox sees as 65534: RLIMIT_NPROC is
 * not enforced for root, it counts per uid, and nobody should own the sandbox's processes anyway.
 * bubblewrap installs seccomp programs (built by the reflex addon: packages/reflex/src/seccomp.rs)
 * just before it starts the command, read from file descriptors 3 and 4, pipes `spawnSandbox`
 * fills: the system calls a text command never needs (ptrace, mount, bpf, keyctl, new namespaces…)
 * fail with EPERM.
 *
 * ```ts
 * const argv = sandboxArgv(sandbox, { name: 'wc', binary: '/usr/bin/wc', libraries }, ['-l'], limits)
 * const child = spawnSandbox(argv, { detached: true, stdio: ['pipe', 'pipe', 'pipe'] })
 * ```
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { existsSync, realpathSync } from 'node:fs'
import { basename, dirname } from 'node:path'
import type { Writable } from 'node:stream'
import { promisify } from 'node:util'

import { closeDescriptorsOnExec, sandboxSeccompFilters } from '@ganglion/reflex'

import type { ExecutorLimits } from './limits.js'

/** The seccomp programs, built once per process; bubblewrap reads them from fds 3, 4… */
const SECCOMP: readonly Buffer[] = sandboxSeccompFilters()
const SECCOMP_FIRST_FD = 3

export interface SandboxTools {
  bwrap: string
  prlimit: string
  setpriv: string
}

export interface AllowedCommand {
  name: string
  /** The real file, symlinks (Debian's /etc/alternatives) resolved on the host: /etc is not in the sandbox. */
  binary: string
}

export interface ResolvedCommand extends AllowedCommand {
  /** Each shared library it loads (the dynamic loader included): `[host file, path in the sandbox]`. */
  libraries: Array<[string, string]>
}

const LOCALE = '/usr/lib/locale/C.utf8'

/** The uid and gid a command sees itself as, when the service is root. */
const NOBODY = 65534

export function sandboxTools(bwrap = '/usr/bin/bwrap'): SandboxTools {
  return { bwrap, prlimit: '/usr/bin/prlimit', setpriv: '/usr/bin/setpriv' }
}

/**
 * Finds each allowed name in /usr/bin; the names not installed are returned apart. Libraries are
 * listed later (`sharedLibraries`), on a command's first run: ldd takes a few ms per binary and
 * most allowed commands are never run by a given process.
 */
export function resolveCommands(names: readonly string[]): { found: Map<string, AllowedCommand>; missing: string[] } {
  const found = new Map<string, AllowedCommand>()
  const missing: string[] = []
  for (const name of names) {
    try {
      found.set(name, { name, binary: realpathSync(`/usr/bin/${name}`) })
    } catch {
      missing.push(name)
    }
  }
  return { found, missing }
}

/**
 * The libraries `binary` loads, from `ldd` (empty for a static binary). Each is bound at the path
 * the loader looks for, its directory's symlinks resolved (/lib → /usr/lib), so the sandbox's
 * /lib and /lib64 symlinks lead to it; the file itself is the real one (libfoo.so.1 → .so.1.2.3).
 */
export async function sharedLibraries(binary: string): Promise<Array<[string, string]>> {
  let listing: string
  try {
    listing = (await promisify(execFile)('ldd', [binary], { encoding: 'utf8', env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' } })).stdout
  } catch {
    return [] // "not a dynamic executable"; a binary that cannot run fails in the sandbox, loudly
  }
  const libraries: Array<[string, string]> = []
  for (const line of listing.split('\n')) {
    // "libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x…)" or "/lib64/ld-linux-x86-64.so.2 (0x…)"
    const words = line.trim().split(/\s+/)
    const path = words.find((w, i) => w.startsWith('/') && /^\(0x[0-9a-f]+\)$/.test(words[i + 1] ?? ''))
    if (path === undefined) continue
    libraries.push([realpathSync(path), `${realpathSync(dirname(path))}/${basename(path)}`])
  }
  return libraries
}

export function sandboxArgv(
  tools: SandboxTools,
  command: ResolvedCommand,
  args: readonly string[],
  limits: Pick<ExecutorLimits, 'shellCpuSeconds' | 'shellMemoryBytes' | 'shellFileBytes' | 'shellProcesses' | 'shellTmpBytes'>,
  /** The host uid and gid the command runs as when the service is root. */
  hostId = NOBODY,
): string[] {
  const rlimits = [
    tools.prlimit,
    `--cpu=${limits.shellCpuSeconds}`,
    `--as=${limits.shellMemoryBytes}`,
    `--fsize=${limits.shellFileBytes}`,
    `--nproc=${limits.shellProcesses}`,
    '--nofile=256',
    '--core=0',
    '--',
  ]
  const root = process.getuid?.() === 0
  const dropRoot = root ? [tools.setpriv, `--reuid=${hostId}`, `--regid=${hostId}`, '--clear-groups', '--'] : []
  const seenAs = root ? ['--uid', String(NOBODY), '--gid', String(NOBODY)] : []
  const lib64 = existsSync('/usr/lib64') ? ['--symlink', 'usr/lib64', '/lib64'] : []
  const libraries = command.libraries.flatMap(([file, at]) => ['--ro-bind', file, at])
  const locale = existsSync(LOCALE) ? ['--ro-bind', LOCALE, LOCALE] : []
  const bwrap = [
    tools.bwrap,
    '--unshare-all', // user, pid, net, ipc, uts, cgroup namespaces: no network at all
    '--unshare-user',
    ...seenAs,
    '--disable-userns', // the command cannot make namespaces of its own
    '--die-with-parent',
    '--new-session', // no TIOCSTI into the service's terminal
    ...SECCOMP.flatMap((_, i) => ['--add-seccomp-fd', String(SECCOMP_FIRST_FD + i)]),
    ...libraries,
    ...locale,
    '--symlink',
    'usr/lib',
    '/lib',
    ...lib64,
    '--ro-bind',
    command.binary,
    `/usr/bin/${command.name}`,
    '--symlink',
    'usr/bin',
    '/bin',
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--size',
    String(limits.shellTmpBytes),
    '--tmpfs',
    '/tmp',
    '--remount-ro',
    '/', // only /tmp (size-limited) is writable
    '--chdir',
    '/tmp',
    '--clearenv',
    '--setenv',
    'PATH',
    '/usr/bin',
    '--setenv',
    'LANG',
    'C.UTF-8',
    '--setenv',
    'HOME',
    '/tmp',
    '--',
    `/usr/bin/${command.name}`,
    ...args,
  ]
  return [...rlimits, ...dropRoot, ...bwrap]
}

type Stdio = 'pipe' | 'ignore'

/**
 * Starts a `sandboxArgv` command line with no environment, handing bubblewrap its seccomp programs
 * on pipes at fds 3 and 4 (bubblewrap reads each to its end and closes it before the command starts),
 * and no other descriptor of this process: bubblewrap passes on whatever it inherits, and a
 * descriptor the service's parent left open (a supervisor's pipe, a socket) would reach the command.
 */
export function spawnSandbox(argv: readonly string[], opts: { detached?: boolean; stdio: [Stdio, Stdio, Stdio] }): ChildProcess {
  closeDescriptorsOnExec()
  const [file, ...args] = argv
  const child = spawn(file!, args, {
    detached: opts.detached ?? false,
    env: {},
    stdio: [...opts.stdio, ...SECCOMP.map(() => 'pipe' as const)],
  })
  SECCOMP.forEach((program, i) => {
    const pipe = child.stdio[SECCOMP_FIRST_FD + i] as Writable | null
    pipe?.on('error', () => {}) // bubblewrap failed before reading it: its exit says why
    pipe?.end(program)
  })
  return child
}

export interface SandboxProbe {
  ok: boolean
  detail: string
}

/** Runs `true` in the sandbox once: bubblewrap missing, or namespaces refused, shows here. */
export async function probeSandbox(tools: SandboxTools, limits: Parameters<typeof sandboxArgv>[3]): Promise<SandboxProbe> {
  for (const file of [tools.bwrap, tools.prlimit]) {
    if (!existsSync(file)) return { ok: false, detail: `${file} not found` }
  }
  const truth = resolveCommands(['true']).found.get('true')
  if (!truth) return { ok: false, detail: '/usr/bin/true not found' }
  const argv = sandboxArgv(tools, { ...truth, libraries: await sharedLibraries(truth.binary) }, [], limits)
  return new Promise((resolve) => {
    let stderr = ''
    const child = spawnSandbox(argv, { stdio: ['ignore', 'ignore', 'pipe'] })
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(0, 500)
    })
    child.on('error', (err) => resolve({ ok: false, detail: err.message }))
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve(
        code === 0
          ? { ok: true, detail: 'bubblewrap runs with --unshare-all and the seccomp filter' }
          : { ok: false, detail: `sandbox test exited ${code ?? signal}: ${stderr.trim()}` },
      )
    })
  })
}
