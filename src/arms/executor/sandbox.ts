/**
 * The bubblewrap command line that confines one shell command, and the check that bubblewrap works
 * here at all. The sandbox sees only the allowed binaries (bound one by one into /usr/bin), the
 * libraries under /usr/lib, a fresh /proc and /dev, and a private size-limited /tmp; no /etc, /home,
 * /root or working tree, no network (a new, empty network namespace), no environment but PATH,
 * LANG and HOME. Limits are rlimits set by util-linux `prlimit` before bubblewrap starts, so they bind
 * everything inside. Running as root, `setpriv` first drops to uid/gid 65534: RLIMIT_NPROC is not
 * enforced for root, and nobody should own the sandbox's processes anyway.
 *
 * ```ts
 * const [file, ...args] = sandboxArgv(sandbox, { name: 'wc', binary: '/usr/bin/wc' }, ['-l'], limits)
 * spawn(file, args, { detached: true, env: {} })
 * ```
 */
import { spawn } from 'node:child_process'
import { existsSync, realpathSync } from 'node:fs'

import type { ExecutorLimits } from './limits.js'

export interface SandboxTools {
  bwrap: string
  prlimit: string
  setpriv: string
}

export interface ResolvedCommand {
  name: string
  /** The real file, symlinks (Debian's /etc/alternatives) resolved on the host: /etc is not in the sandbox. */
  binary: string
}

/** uid and gid the sandbox runs as when the service is root. */
const NOBODY = 65534

export function sandboxTools(bwrap = '/usr/bin/bwrap'): SandboxTools {
  return { bwrap, prlimit: '/usr/bin/prlimit', setpriv: '/usr/bin/setpriv' }
}

/** Finds each allowed name in /usr/bin; the names not installed are returned apart. */
export function resolveCommands(names: readonly string[]): { found: Map<string, ResolvedCommand>; missing: string[] } {
  const found = new Map<string, ResolvedCommand>()
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

export function sandboxArgv(
  tools: SandboxTools,
  command: ResolvedCommand,
  args: readonly string[],
  limits: Pick<ExecutorLimits, 'shellCpuSeconds' | 'shellMemoryBytes' | 'shellFileBytes' | 'shellProcesses' | 'shellTmpBytes'>,
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
  const dropRoot = process.getuid?.() === 0
    ? [tools.setpriv, `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--']
    : []
  const lib64 = existsSync('/usr/lib64') ? ['--ro-bind', '/usr/lib64', '/usr/lib64', '--symlink', 'usr/lib64', '/lib64'] : []
  const bwrap = [
    tools.bwrap,
    '--unshare-all', // user, pid, net, ipc, uts, cgroup namespaces: no network at all
    '--unshare-user',
    '--disable-userns', // the command cannot make namespaces of its own
    '--die-with-parent',
    '--new-session', // no TIOCSTI into the service's terminal
    '--ro-bind', '/usr/lib', '/usr/lib',
    '--symlink', 'usr/lib', '/lib',
    ...lib64,
    '--ro-bind', command.binary, `/usr/bin/${command.name}`,
    '--symlink', 'usr/bin', '/bin',
    '--proc', '/proc',
    '--dev', '/dev',
    '--size', String(limits.shellTmpBytes),
    '--tmpfs', '/tmp',
    '--chdir', '/tmp',
    '--clearenv',
    '--setenv', 'PATH', '/usr/bin',
    '--setenv', 'LANG', 'C.UTF-8',
    '--setenv', 'HOME', '/tmp',
    '--',
    `/usr/bin/${command.name}`,
    ...args,
  ]
  return [...rlimits, ...dropRoot, ...bwrap]
}

export interface SandboxProbe {
  ok: boolean
  detail: string
}

/** Runs `true` in the sandbox once: bubblewrap missing, or namespaces refused, shows here. */
export function probeSandbox(tools: SandboxTools, limits: Parameters<typeof sandboxArgv>[3]): Promise<SandboxProbe> {
  for (const file of [tools.bwrap, tools.prlimit]) {
    if (!existsSync(file)) return Promise.resolve({ ok: false, detail: `${file} not found` })
  }
  const truth = resolveCommands(['true']).found.get('true')
  if (!truth) return Promise.resolve({ ok: false, detail: '/usr/bin/true not found' })
  const [file, ...args] = sandboxArgv(tools, truth, [], limits)
  return new Promise((resolve) => {
    let stderr = ''
    const child = spawn(file!, args, { env: {}, stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr = (stderr + chunk).slice(0, 500) })
    child.on('error', (err) => resolve({ ok: false, detail: err.message }))
    child.on('close', (code, signal) => {
      resolve(code === 0
        ? { ok: true, detail: 'bubblewrap runs with --unshare-all' }
        : { ok: false, detail: `sandbox test exited ${code ?? signal}: ${stderr.trim()}` })
    })
  })
}
